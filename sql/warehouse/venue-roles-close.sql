-- Closes the open version of a venue role. $1 = venue id, $2 = role id, $3 = snapshot instant.
UPDATE venue_roles SET valid_to = $3::TIMESTAMPTZ
 WHERE venue_id = $1::UUID AND role_id = $2::UUID AND valid_to IS NULL;
