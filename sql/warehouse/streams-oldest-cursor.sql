-- Per stream, its oldest cursor (the newest day every scope of it has loaded), for freshness.
SELECT stream, strftime(min(cursor_date), '%Y-%m-%d') AS oldest_cursor
  FROM sync_cursors
 GROUP BY stream
 ORDER BY stream;
