-- Rows per table after the demo's sync (printed by `venue-etl demo`).
SELECT 'series_points' AS "table", count(*)::BIGINT AS "rows" FROM series_points UNION ALL
SELECT 'summary_values', count(*) FROM summary_values UNION ALL
SELECT 'venue_roles', count(*) FROM venue_roles UNION ALL
SELECT 'project_roles', count(*) FROM project_roles UNION ALL
SELECT 'accounts', count(*) FROM accounts;
