-- Writes the staged rows of the changed summary windows. $1 = run_id.
INSERT INTO summary_values
SELECT c.venue_id, c.stream, m.metric,
       DATE '1970-01-01' + s.start_day,
       DATE '1970-01-01' + s.end_day,
       CASE WHEN isnan(s.value) THEN NULL ELSE s.value END,
       $1, now()
FROM stage_summaries AS s
JOIN changed_summary_windows AS c USING (w)
JOIN stage_summary_metrics AS m USING (m);
