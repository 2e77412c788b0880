-- Folds visit histories into user_venue_history. $1 = JSON list of rows {user_id, venue_id,
-- visits_count, first_visit_on, last_visit_on (ISO text ending in Z, or null)}.
-- greatest/least skip NULLs, so a value the event did not send never erases one stored;
-- updated_at moves only when a value does.
INSERT INTO user_venue_history AS h (user_id, venue_id, visits_count, first_visit_on, last_visit_on, updated_at)
SELECT r.user_id::UUID, r.venue_id::UUID, r.visits_count, r.first_visit_on::TIMESTAMPTZ, r.last_visit_on::TIMESTAMPTZ, now()
  FROM (SELECT unnest(from_json($1::JSON,
         '[{"user_id":"VARCHAR","venue_id":"VARCHAR","visits_count":"BIGINT","first_visit_on":"VARCHAR","last_visit_on":"VARCHAR"}]'),
         recursive := true)) AS r
ON CONFLICT (user_id, venue_id) DO UPDATE SET
  visits_count   = greatest(h.visits_count, excluded.visits_count),
  first_visit_on = least(h.first_visit_on, excluded.first_visit_on),
  last_visit_on  = greatest(h.last_visit_on, excluded.last_visit_on),
  updated_at     = CASE
    WHEN h.visits_count   IS DISTINCT FROM greatest(h.visits_count, excluded.visits_count)
      OR h.first_visit_on IS DISTINCT FROM least(h.first_visit_on, excluded.first_visit_on)
      OR h.last_visit_on  IS DISTINCT FROM greatest(h.last_visit_on, excluded.last_visit_on)
    THEN excluded.updated_at ELSE h.updated_at END;
