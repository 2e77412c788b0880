-- The open versions (valid_to IS NULL) of one project's roles. $1 = project id.
SELECT role_id::VARCHAR AS role_id, account_id::VARCHAR AS account_id, name, NULL::VARCHAR AS inherited_from, permissions,
       epoch_ms(valid_from)::DOUBLE AS valid_from_ms
  FROM project_roles
 WHERE project_id = $1::UUID AND valid_to IS NULL;
