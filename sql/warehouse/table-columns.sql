-- The columns of the given warehouse tables, in order (for lineage's schema facet). $1 = table names, comma-separated.
SELECT table_name, column_name, data_type
  FROM information_schema.columns
 WHERE table_schema = 'main' AND list_contains(string_split($1, ','), table_name)
 ORDER BY table_name, ordinal_position;
