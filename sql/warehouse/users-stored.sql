-- The stored attributes of the given users. $1 = JSON list of user ids (UUIDs).
SELECT user_id::VARCHAR AS id, email, email_confirmed, first_name, last_name, phone, phone_confirmed,
       language, birth_date::VARCHAR AS birth_date, gender, is_subscribed
  FROM users
 WHERE user_id IN (SELECT unnest(from_json($1::JSON, '["UUID"]')));
