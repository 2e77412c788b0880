-- A new account. $1 = id, $2 = email, $3 = full name, $4 = confirmed_at (epoch ms, or null),
-- $5 = language, $6 = roles_names (JSON list), $7 = tags (JSON), $8 = created_by_id,
-- $9 = is_me, $10 = snapshot instant (first and last seen), $11 = run id.
INSERT INTO accounts (account_id, email, full_name, confirmed_at, language, roles_names, tags, created_by_id,
                      is_me, first_seen_at, last_seen_at, run_id)
VALUES ($1::UUID, $2, $3, make_timestamptz(CAST($4 AS BIGINT) * 1000), $5, $6::JSON::VARCHAR[], $7::JSON, $8,
        $9, $10::TIMESTAMPTZ, $10::TIMESTAMPTZ, $11);
