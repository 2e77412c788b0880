-- Drops identical copies of staged rows (run only after series-duplicates.sql found no
-- contradicting ones).
CREATE OR REPLACE TEMP TABLE stage_series_distinct AS SELECT DISTINCT * FROM stage_series;
DELETE FROM stage_series;
INSERT INTO stage_series SELECT * FROM stage_series_distinct;
DROP TABLE stage_series_distinct;
