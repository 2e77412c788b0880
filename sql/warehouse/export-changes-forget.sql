-- After an export: deletes the marks it exported, named by seq ranges 'lo-hi,lo-hi,…' ($1),
-- exactly the ones its snapshot saw: a mark committed during the export stays for the next one.
DELETE FROM export_changes
 WHERE seq IN (
   SELECT unnest(generate_series(split_part(r, '-', 1)::BIGINT, split_part(r, '-', 2)::BIGINT))
     FROM unnest(string_split($1::VARCHAR, ',')) AS t(r)
 );
