-- Empties the owned region of every changed summary window.
DELETE FROM summary_values AS s
USING changed_summary_windows AS c
WHERE s.venue_id = c.venue_id AND s.stream = c.stream
  AND s.period_start BETWEEN c.d_from AND c.d_to
  AND CASE WHEN c.grain = 'day' THEN s.period_end = s.period_start
           ELSE s.period_end > s.period_start OR (c.owns_single_day AND s.period_end = s.period_start)
      END;
