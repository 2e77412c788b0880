-- Opens a version of a project role. $1 = role id, $2 = project id, $3 = account id, $4 = name,
-- $5 = permissions (JSON list of text), $6 = snapshot instant, $7 = run id.
INSERT INTO project_roles (role_id, project_id, account_id, name, permissions, valid_from, valid_to, run_id)
VALUES ($1::UUID, $2::UUID, $3::UUID, $4, $5::JSON::VARCHAR[], $6::TIMESTAMPTZ, NULL, $7);
