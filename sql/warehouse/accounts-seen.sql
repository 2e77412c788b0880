-- An unchanged account seen again. $1 = id, $2 = snapshot instant.
UPDATE accounts SET last_seen_at = $2::TIMESTAMPTZ WHERE account_id = $1::UUID;
