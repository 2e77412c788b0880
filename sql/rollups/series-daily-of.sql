-- series_daily as defined over raw rows: one row per venue, stream, metric and UTC day that holds
-- a series point, with what each grain holds that day. This text is the one definition of the
-- rollup (docs/warehouse.md, "The daily rollup"); it is run over a relation named series_points, which
-- is either the table (the migration that fills series_daily, a check of the rollup by hand in the
-- DuckDB CLI), the Parquet read side's view of the export (where series_daily is a view of this
-- text), or a CTE of that name holding only the points of the days a load changed
-- (src/warehouse/series-daily.ts). So it is one SELECT with no WITH of its own, and no ';'.
--
--   day_points / hour_points  rows of each grain that day (a day grain row normally 1, hours 24)
--   hour_slots                distinct UTC hours holding an hour row (fewer than hour_points:
--                             two rows in one hour, the duplicate-key check's candidates)
--   day_known / hour_known    rows of each grain whose value is known (not NULL)
--   day_sum / hour_sum        sum of the known values of each grain (NULL when none is known)
--
-- The UTC day comes from the epoch (floor, so days before 1970 stay right): the same day as
-- timezone('UTC', ts)::DATE whatever the session's TimeZone, at a tenth of the cost.
SELECT venue_id, stream, metric, day,
       count(*) FILTER (WHERE granularity = 'day')::INTEGER AS day_points,
       count(value) FILTER (WHERE granularity = 'day')::INTEGER AS day_known,
       sum(value) FILTER (WHERE granularity = 'day') AS day_sum,
       count(*) FILTER (WHERE granularity = 'hour')::INTEGER AS hour_points,
       coalesce(bit_count(bit_or(1::BIGINT << hour_of_day) FILTER (WHERE granularity = 'hour')), 0)::INTEGER AS hour_slots,
       count(value) FILTER (WHERE granularity = 'hour')::INTEGER AS hour_known,
       sum(value) FILTER (WHERE granularity = 'hour') AS hour_sum
FROM (
  SELECT venue_id, stream, metric, granularity, value,
         DATE '1970-01-01' + floor(epoch_us(ts) / 86400000000)::INTEGER AS day,
         ((epoch_us(ts) - floor(epoch_us(ts) / 86400000000)::BIGINT * 86400000000) // 3600000000)::INTEGER AS hour_of_day
  FROM series_points
) AS points
GROUP BY venue_id, stream, metric, day
