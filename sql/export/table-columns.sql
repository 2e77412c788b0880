-- The columns of a warehouse table, in table order: the export writes them in this order and
-- records name and type in the manifest. $1 = table name.
SELECT column_name AS name, data_type AS type
  FROM duckdb_columns()
 WHERE database_name = current_database() AND schema_name = 'main' AND table_name = $1
 ORDER BY column_index;
