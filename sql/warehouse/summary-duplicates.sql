-- Keys staged more than once; see series-duplicates.sql.
SELECT w.venue_id::VARCHAR AS venue_id, w.stream, m.metric,
       (DATE '1970-01-01' + s.start_day)::VARCHAR AS period_start,
       (DATE '1970-01-01' + s.end_day)::VARCHAR AS period_end,
       count(*)::INTEGER AS copies,
       count(DISTINCT s.value)::INTEGER AS distinct_values
FROM stage_summaries AS s
JOIN stage_summary_windows AS w USING (w)
JOIN stage_summary_metrics AS m USING (m)
GROUP BY ALL
HAVING count(*) > 1
ORDER BY distinct_values DESC
LIMIT 5;
