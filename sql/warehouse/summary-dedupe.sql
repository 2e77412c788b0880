-- Drops identical copies of staged summary rows.
CREATE OR REPLACE TEMP TABLE stage_summaries_distinct AS SELECT DISTINCT * FROM stage_summaries;
DELETE FROM stage_summaries;
INSERT INTO stage_summaries SELECT * FROM stage_summaries_distinct;
DROP TABLE stage_summaries_distinct;
