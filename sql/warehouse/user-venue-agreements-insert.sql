-- Adds acceptances not stored yet. $1 = JSON list of rows {user_id, venue_id, accepted_date
-- (ISO text ending in Z, or null), texts (list, or null), event_id}.
-- An acceptance is identified by user, venue and accepted_date, or by the texts when it has
-- no accepted_date (the receiver's agreement-rows.ts folds a batch by the same identity).
INSERT INTO user_venue_agreements (user_id, venue_id, accepted_date, texts, event_id)
SELECT r.user_id::UUID, r.venue_id::UUID, r.accepted_date::TIMESTAMPTZ, r.texts, r.event_id
  FROM (SELECT unnest(from_json($1::JSON,
         '[{"user_id":"VARCHAR","venue_id":"VARCHAR","accepted_date":"VARCHAR","texts":["VARCHAR"],"event_id":"VARCHAR"}]'),
         recursive := true)) AS r
 WHERE NOT EXISTS (
   SELECT 1 FROM user_venue_agreements a
    WHERE a.user_id = r.user_id::UUID AND a.venue_id = r.venue_id::UUID
      AND CASE WHEN r.accepted_date IS NULL
               THEN a.accepted_date IS NULL AND a.texts IS NOT DISTINCT FROM r.texts
               ELSE a.accepted_date = r.accepted_date::TIMESTAMPTZ END);
