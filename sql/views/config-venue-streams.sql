-- The streams asked per venue (the endpoint catalogue's venue rows, the config's endpoints[]
-- included): their cursors' scope ids are venue ids, the others' are project ids or 'accounts'.
-- Read by the venue_labels view (venue-labels.sql); temporary, like config_venues.
-- $1 = JSON list of stream names.
CREATE OR REPLACE TEMP TABLE config_venue_streams AS
SELECT unnest(from_json($1::JSON, '["VARCHAR"]')) AS stream;
