-- Bytes DuckDB's buffer pool holds now, over every tag (the base of a checkpoint's own limit).
SELECT coalesce(sum(memory_usage_bytes), 0) FROM duckdb_memory();
