-- Marks the series_points partitions (stream, UTC month) of the windows this round replaced,
-- in the commit's transaction: every month a changed window overlaps, whether rows were
-- deleted, inserted or both there. The next export reads only these (docs/parquet.md).
INSERT INTO export_changes (table_name, stream, month)
SELECT DISTINCT 'series_points', c.stream, strftime(m.month, '%Y-%m')
FROM changed_series_windows AS c,
     unnest(generate_series(date_trunc('month', timezone('UTC', c.ts_from)),
                            timezone('UTC', c.ts_to) - INTERVAL 1 MICROSECOND,
                            INTERVAL 1 MONTH)) AS m(month);
