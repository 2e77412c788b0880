-- Writes the merged attributes of users (every column: the merge decided each one).
-- $1 = JSON list of rows {id, email, email_confirmed, first_name, last_name, phone,
-- phone_confirmed, language, birth_date (YYYY-MM-DD), gender, is_subscribed}.
INSERT OR REPLACE INTO users (user_id, email, email_confirmed, first_name, last_name, phone, phone_confirmed,
                              language, birth_date, gender, is_subscribed, updated_at)
SELECT r.id::UUID, r.email, r.email_confirmed, r.first_name, r.last_name, r.phone, r.phone_confirmed,
       r.language, r.birth_date::DATE, r.gender, r.is_subscribed, now()
  FROM (SELECT unnest(from_json($1::JSON,
         '[{"id":"VARCHAR","email":"VARCHAR","email_confirmed":"BOOLEAN","first_name":"VARCHAR","last_name":"VARCHAR","phone":"VARCHAR","phone_confirmed":"BOOLEAN","language":"VARCHAR","birth_date":"VARCHAR","gender":"VARCHAR","is_subscribed":"BOOLEAN"}]'),
         recursive := true)) AS r;
