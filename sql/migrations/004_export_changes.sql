-- 004_export_changes: which Parquet partitions a commit touched, so an export reads and writes
-- only those instead of fingerprinting every partition of every table (docs/parquet.md).
--
-- Every statement that writes an exported table adds its marks in the same transaction as the
-- rows: (table, stream, month) for series_points / summary_values, (table, NULL, NULL) for the
-- unpartitioned tables. The rows are append-only and never updated, so an export deleting the
-- marks it exported never conflicts with a commit adding new ones; `seq` names each mark, and
-- an export deletes exactly the seqs its snapshot saw (a commit during the export keeps its).
CREATE SEQUENCE export_change_seq START 1;
CREATE TABLE export_changes (
  seq        BIGINT NOT NULL DEFAULT nextval('export_change_seq'),
  table_name VARCHAR NOT NULL,
  stream     VARCHAR,              -- NULL for an unpartitioned table
  month      VARCHAR               -- 'YYYY-MM' (UTC) as the partition path spells it; NULL likewise
);

-- Small facts about this warehouse file. `warehouse_id` (random, set once) tells a manifest
-- written for another warehouse; `export_generation` is replaced by every export that forgets
-- marks, so a manifest whose generation differs (another folder's export forgot them, or the
-- file is an older copy) is exported in full.
CREATE TABLE warehouse_meta (
  key   VARCHAR PRIMARY KEY,
  value VARCHAR NOT NULL
);
INSERT INTO warehouse_meta VALUES ('warehouse_id', uuid()::VARCHAR);
