-- One `me`: the token may now belong to another account. $1 = JSON list of the new `me` id.
UPDATE accounts SET is_me = false
 WHERE is_me AND account_id NOT IN (SELECT unnest($1::JSON::UUID[]));
