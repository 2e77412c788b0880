-- What `venue-etl reset` would change, per stream: cursors it forgets or moves back, and (with
-- --rows) the rows it deletes. $1 = streams, comma-separated; $2 = venue/project ids,
-- comma-separated, or NULL for all; $3 = from DATE or NULL (whole history); $4 = to DATE or
-- NULL (open end, rows only); $5 = delete rows too (BOOLEAN).
WITH chosen AS (
  SELECT unnest(string_split($1::VARCHAR, ',')) AS stream
),
cursors AS (
  SELECT stream, count(*)::INTEGER AS n
    FROM sync_cursors
   WHERE list_contains(string_split($1::VARCHAR, ','), stream)
     AND ($2::VARCHAR IS NULL OR list_contains(string_split(lower($2::VARCHAR), ','), lower(scope_id)))
     AND ($3::DATE IS NULL OR cursor_date >= $3::DATE)
   GROUP BY stream
),
series AS (
  SELECT stream, count(*)::INTEGER AS n
    FROM series_points
   WHERE $5::BOOLEAN
     AND list_contains(string_split($1::VARCHAR, ','), stream)
     AND ($2::VARCHAR IS NULL OR list_contains(string_split(lower($2::VARCHAR), ','), venue_id::VARCHAR))
     AND ($3::DATE IS NULL OR ts >= $3::DATE::TIMESTAMPTZ)
     AND ($4::DATE IS NULL OR ts < ($4::DATE + 1)::TIMESTAMPTZ)
   GROUP BY stream
),
summaries AS (
  SELECT stream, count(*)::INTEGER AS n
    FROM summary_values
   WHERE $5::BOOLEAN
     AND list_contains(string_split($1::VARCHAR, ','), stream)
     AND ($2::VARCHAR IS NULL OR list_contains(string_split(lower($2::VARCHAR), ','), venue_id::VARCHAR))
     AND ($3::DATE IS NULL OR period_end >= $3::DATE)
     AND ($4::DATE IS NULL OR period_start <= $4::DATE)
   GROUP BY stream
)
SELECT chosen.stream,
       coalesce(cursors.n, 0) AS cursors,
       coalesce(series.n, 0) AS series_rows,
       coalesce(summaries.n, 0) AS summary_rows
  FROM chosen
  LEFT JOIN cursors USING (stream)
  LEFT JOIN series USING (stream)
  LEFT JOIN summaries USING (stream)
 ORDER BY chosen.stream;
