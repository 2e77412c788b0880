-- Drops the open version of a project role opened at the same instant as a newer snapshot (the
-- later snapshot is the version of that instant). $1 = project id, $2 = role id.
DELETE FROM project_roles WHERE project_id = $1::UUID AND role_id = $2::UUID AND valid_to IS NULL;
