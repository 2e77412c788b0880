-- A load round: how many of its changed windows hold hours of an additive metric's stream (the
-- only ones the peak-hours rollup reads); none, and the round leaves the rollup alone.
SELECT count(*)::INTEGER AS n
FROM changed_series_windows c
WHERE c.granularity = 'hour' AND c.stream IN (SELECT stream FROM additive_metrics());
