-- Whether the range holds any hourly point of the devices detected (venue-devices-history), the metric of the dashboard's peak-hours grid
--
-- Parameters, as DuckDB variables (unset or NULL = no limit):
--   SET VARIABLE from_date = DATE '2026-01-01';      -- first day, inclusive (UTC)
--   SET VARIABLE to_date   = DATE '2026-01-31';      -- last day, inclusive (UTC)
--   SET VARIABLE venue_ids = ['<venue uuid>'];       -- VARCHAR[]
--
-- One look, stopped at the first point found: the page runs peak-hours month by month only when
-- there is something to draw. A day either side, as peak-hours reads its days in a zone.
SELECT EXISTS (
  SELECT 1
  FROM series_points
  WHERE granularity = 'hour' AND stream = 'venue-devices-history' AND metric = 'detected'
    AND (getvariable('from_date') IS NULL OR ts >= timezone('UTC', (getvariable('from_date') - 1)::TIMESTAMP))
    AND (getvariable('to_date') IS NULL OR ts < timezone('UTC', (getvariable('to_date') + 2)::TIMESTAMP))
    AND (getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), venue_id::VARCHAR))
) AS hourly;
