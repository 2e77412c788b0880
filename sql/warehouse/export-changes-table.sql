-- Marks an unpartitioned exported table as changed, in the writing transaction: its one
-- Parquet file is rewritten by the next export. $1 = table name.
INSERT INTO export_changes (table_name) VALUES ($1);
