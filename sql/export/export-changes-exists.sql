-- Whether the warehouse records export marks (migration 004); an older file is exported in full.
SELECT count(*)::INTEGER AS n
  FROM duckdb_tables()
 WHERE database_name = current_database() AND schema_name = 'main' AND table_name IN ('export_changes', 'warehouse_meta');
