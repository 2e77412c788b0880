-- The stored form of the given accounts, as the upsert compares it. $1 = JSON list of account ids.
SELECT account_id::VARCHAR AS account_id, email, full_name, epoch_ms(confirmed_at)::DOUBLE AS confirmed_ms,
       language, roles_names, tags::VARCHAR AS tags, created_by_id, is_me
  FROM accounts
 WHERE account_id IN (SELECT unnest($1::JSON::UUID[]));
