-- The views a read command's Parquet source holds (one per exported table, and current_roles).
SELECT view_name FROM duckdb_views() WHERE NOT internal AND schema_name = 'main' ORDER BY view_name;
