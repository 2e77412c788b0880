-- Records the generation of the export that just forgot marks ($1); see 004_export_changes.sql.
INSERT OR REPLACE INTO warehouse_meta VALUES ('export_generation', $1);
