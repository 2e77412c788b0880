-- Every account's current roles and permissions on each venue, roles inherited from the project included
--
-- Parameters, as DuckDB variables (unset or NULL = no limit):
--   SET VARIABLE venue_ids = ['<venue uuid>'];       -- VARCHAR[]
--
-- The API's venue role list already contains the roles inherited from the project
-- (inherited_from = 'project-roles'), so current_venue_roles alone is complete. granted_by says
-- where the account's access on the venue comes from: venue, project, or both. A venue's own
-- roles have inherited_from NULL: bool_and/bool_or skip NULLs, so the comparison is made
-- NULL-free first (otherwise an account holding an own and an inherited role reads 'project').
WITH roles AS (
  SELECT *, coalesce(inherited_from = 'project-roles', false) AS inherited
  FROM current_venue_roles
)
SELECT venue_label(r.venue_id) AS venue,
       r.venue_id,
       r.account_id,
       a.email,
       a.full_name,
       string_agg(DISTINCT r.name, ', ' ORDER BY r.name) AS roles,
       CASE
         WHEN bool_and(r.inherited) THEN 'project'
         WHEN bool_or(r.inherited) THEN 'venue+project'
         ELSE 'venue'
       END AS granted_by,
       list_sort(list_distinct(flatten(list(r.permissions)))) AS permissions,
       len(list_distinct(flatten(list(r.permissions)))) AS permission_count
FROM roles r
LEFT JOIN accounts a ON a.account_id = r.account_id
WHERE getvariable('venue_ids') IS NULL OR list_contains(getvariable('venue_ids'), r.venue_id::VARCHAR)
GROUP BY r.venue_id, r.account_id, a.email, a.full_name
ORDER BY r.venue_id, a.email NULLS LAST, r.account_id;
