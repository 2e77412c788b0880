-- Marks the series_points partitions that reset-series.sql is about to delete rows from (same
-- parameters, same selection), in the reset's transaction.
INSERT INTO export_changes (table_name, stream, month)
SELECT DISTINCT 'series_points', stream, strftime(timezone('UTC', ts), '%Y-%m')
  FROM series_points
 WHERE list_contains(string_split($1::VARCHAR, ','), stream)
   AND ($2::VARCHAR IS NULL OR list_contains(string_split(lower($2::VARCHAR), ','), venue_id::VARCHAR))
   AND ($3::DATE IS NULL OR ts >= $3::DATE::TIMESTAMPTZ)
   AND ($4::DATE IS NULL OR ts < ($4::DATE + 1)::TIMESTAMPTZ);
