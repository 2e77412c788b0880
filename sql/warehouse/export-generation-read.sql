-- The warehouse's export generation (no row before the first export that forgot marks).
SELECT value FROM warehouse_meta WHERE key = 'export_generation';
