-- Empty stand-ins, with the warehouse's columns, for the tables venue-labels.sql reads, where a
-- Parquet lake holds none of them (an export limited by --tables): venues are then known only
-- from the config, and shown by their short id otherwise. A table the lake holds keeps its view.
CREATE VIEW IF NOT EXISTS venues AS
SELECT NULL::UUID AS venue_id, NULL::VARCHAR AS name, NULL::VARCHAR AS address, NULL::VARCHAR AS city,
       NULL::VARCHAR AS country, NULL::TIMESTAMPTZ AS created_at, NULL::TIMESTAMPTZ AS updated_at
WHERE false;

CREATE VIEW IF NOT EXISTS sync_cursors AS
SELECT NULL::VARCHAR AS stream, NULL::VARCHAR AS scope_id, NULL::DATE AS cursor_date,
       NULL::TIMESTAMPTZ AS updated_at, NULL::VARCHAR AS run_id
WHERE false;
