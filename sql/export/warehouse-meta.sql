-- The warehouse's identity and export generation, in the export's snapshot (NULL when absent).
SELECT (SELECT value FROM warehouse_meta WHERE key = 'warehouse_id') AS warehouse_id,
       (SELECT value FROM warehouse_meta WHERE key = 'export_generation') AS generation;
