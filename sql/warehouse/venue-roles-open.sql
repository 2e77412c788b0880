-- Opens a version of a venue role. $1 = role id, $2 = venue id, $3 = account id, $4 = name,
-- $5 = inherited_from, $6 = permissions (JSON list of text), $7 = snapshot instant, $8 = run id.
INSERT INTO venue_roles (role_id, venue_id, account_id, name, inherited_from, permissions, valid_from, valid_to, run_id)
VALUES ($1::UUID, $2::UUID, $3::UUID, $4, $5, $6::JSON::VARCHAR[], $7::TIMESTAMPTZ, NULL, $8);
