-- Which of the given event ids upsert_events already holds (their merge is skipped).
-- $1 = JSON list of event ids, e.g. '["3f…","a9…"]'.
SELECT event_id FROM upsert_events
 WHERE event_id IN (SELECT unnest(from_json($1::JSON, '["VARCHAR"]')));
