-- Marks the summary_values partitions (stream, month of period_start) of the windows this
-- round replaced, in the commit's transaction; see export-changes-series.sql.
INSERT INTO export_changes (table_name, stream, month)
SELECT DISTINCT 'summary_values', c.stream, strftime(m.month, '%Y-%m')
FROM changed_summary_windows AS c,
     unnest(generate_series(date_trunc('month', c.d_from::TIMESTAMP), c.d_to::TIMESTAMP, INTERVAL 1 MONTH)) AS m(month);
