-- An account whose attributes changed (first_seen_at is never touched). Parameters as in
-- accounts-insert.sql; $10 = snapshot instant (last seen), $11 = the run that changed it.
UPDATE accounts SET email = $2, full_name = $3, confirmed_at = make_timestamptz(CAST($4 AS BIGINT) * 1000), language = $5,
       roles_names = $6::JSON::VARCHAR[], tags = $7::JSON, created_by_id = $8, is_me = $9,
       last_seen_at = $10::TIMESTAMPTZ, run_id = $11
 WHERE account_id = $1::UUID;
