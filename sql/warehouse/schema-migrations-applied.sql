-- Migration versions applied to the file.
SELECT version FROM schema_migrations ORDER BY version;
