-- The config's scope.venues, with the name an entry gives (NULL for a plain id), read by the
-- venue_labels view (venue-labels.sql). A temporary table, made at every read-side open from the
-- config of the command: in memory, for that connection only; the warehouse file is not written.
-- $1 = JSON list of {"id": "<venue uuid>", "name": "<name>" or null}.
CREATE OR REPLACE TEMP TABLE config_venues AS
SELECT r.id::UUID AS venue_id, r.name
FROM (SELECT unnest(from_json($1::JSON, '[{"id":"VARCHAR","name":"VARCHAR"}]'), recursive := true)) AS r;
