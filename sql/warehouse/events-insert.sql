-- Stores the bodies of a merge batch's new events. $1 = JSON list of rows
-- {event_id, received_at (ISO text ending in Z), user_id, venue_id, body (the raw text)}.
-- Rows travel as ONE JSON parameter that from_json unpacks into typed columns: a few
-- statements per batch whatever its size, no per-row round trips.
INSERT INTO upsert_events (event_id, received_at, user_id, venue_id, body)
SELECT r.event_id, r.received_at::TIMESTAMPTZ, r.user_id::UUID, r.venue_id::UUID, r.body::JSON
  FROM (SELECT unnest(from_json($1::JSON,
         '[{"event_id":"VARCHAR","received_at":"VARCHAR","user_id":"VARCHAR","venue_id":"VARCHAR","body":"VARCHAR"}]'),
         recursive := true)) AS r;
