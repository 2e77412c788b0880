-- `venue-etl reset --rows`: summary rows whose period touches the days chosen.
-- $1 = streams, comma-separated; $2 = venue/project ids or NULL; $3 = from DATE or NULL; $4 = to DATE or NULL.
DELETE FROM summary_values
 WHERE list_contains(string_split($1::VARCHAR, ','), stream)
   AND ($2::VARCHAR IS NULL OR list_contains(string_split(lower($2::VARCHAR), ','), venue_id::VARCHAR))
   AND ($3::DATE IS NULL OR period_end >= $3::DATE)
   AND ($4::DATE IS NULL OR period_start <= $4::DATE);
