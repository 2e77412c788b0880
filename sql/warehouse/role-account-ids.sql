-- Account ids the current venue and project roles point to (whose accounts a sync fetches).
SELECT DISTINCT account_id::VARCHAR AS account_id
  FROM (SELECT account_id FROM current_venue_roles UNION ALL SELECT account_id FROM current_project_roles)
 WHERE account_id IS NOT NULL
 ORDER BY 1;
