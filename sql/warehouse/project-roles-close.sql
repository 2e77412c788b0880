-- Closes the open version of a project role. $1 = project id, $2 = role id, $3 = snapshot instant.
UPDATE project_roles SET valid_to = $3::TIMESTAMPTZ
 WHERE project_id = $1::UUID AND role_id = $2::UUID AND valid_to IS NULL;
