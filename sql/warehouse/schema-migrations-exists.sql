-- Whether the file has a schema_migrations table yet (a new file has none).
SELECT count(*)::INTEGER AS n
  FROM duckdb_tables()
 WHERE database_name = current_database() AND schema_name = 'main' AND table_name = 'schema_migrations';
