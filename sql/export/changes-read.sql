-- The export's view of what changed since the marks were last forgotten, in its snapshot:
-- every mark with its seq (the export forgets exactly these after its manifest is written).
SELECT seq::VARCHAR AS seq, table_name, stream, month FROM export_changes ORDER BY seq;
