-- The open versions (valid_to IS NULL) of one venue's roles. $1 = venue id.
SELECT role_id::VARCHAR AS role_id, account_id::VARCHAR AS account_id, name, inherited_from, permissions,
       epoch_ms(valid_from)::DOUBLE AS valid_from_ms
  FROM venue_roles
 WHERE venue_id = $1::UUID AND valid_to IS NULL;
