-- Drops the open version of a venue role opened at the same instant as a newer snapshot (the
-- later snapshot is the version of that instant). $1 = venue id, $2 = role id.
DELETE FROM venue_roles WHERE venue_id = $1::UUID AND role_id = $2::UUID AND valid_to IS NULL;
