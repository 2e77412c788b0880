-- `venue-etl reset --rows`: series rows of the streams, venues and days chosen.
-- $1 = streams, comma-separated; $2 = venue/project ids or NULL; $3 = from DATE or NULL; $4 = to DATE or NULL.
DELETE FROM series_points
 WHERE list_contains(string_split($1::VARCHAR, ','), stream)
   AND ($2::VARCHAR IS NULL OR list_contains(string_split(lower($2::VARCHAR), ','), venue_id::VARCHAR))
   AND ($3::DATE IS NULL OR ts >= $3::DATE::TIMESTAMPTZ)
   AND ($4::DATE IS NULL OR ts < ($4::DATE + 1)::TIMESTAMPTZ);
