-- Marks the summary_values partitions that reset-summaries.sql is about to delete rows from
-- (same parameters, same selection), in the reset's transaction.
INSERT INTO export_changes (table_name, stream, month)
SELECT DISTINCT 'summary_values', stream, strftime(period_start, '%Y-%m')
  FROM summary_values
 WHERE list_contains(string_split($1::VARCHAR, ','), stream)
   AND ($2::VARCHAR IS NULL OR list_contains(string_split(lower($2::VARCHAR), ','), venue_id::VARCHAR))
   AND ($3::DATE IS NULL OR period_end >= $3::DATE)
   AND ($4::DATE IS NULL OR period_start <= $4::DATE);
