-- The text of a value in venue-etl's csv and json output, made by DuckDB instead of JavaScript
-- (docs/commands.md, "Big answers"). Each gives, character for character, what
-- src/readside/values.ts gives the same value (test/readside/text-output.test.ts compares them on
-- seeded random values). Days and instants are written for the years 1000-9999; a row holding
-- another is written by JavaScript (src/readside/text-columns.ts, lineWritten).
--
-- Temporary macros of the read command's own connection, created in its read-only transaction and
-- gone when that is rolled back: nothing is written.

-- JavaScript's Number#toString of a DOUBLE. DuckDB's JSON writer gives the same shortest digits
-- and switches to exponents where JavaScript does (1e21, 1e-7), but writes 2 as "2.0", 1e+21 as
-- "1e21" and -0 as "-0.0". A whole number below 2^53 is its integer (the shortest digits of a
-- double there are its exact value); only the rest go through the JSON text (0.35 s instead of
-- 0.69 s for 10M doubles, against two regexp_replace over every value).
CREATE TEMP MACRO venue_etl_number_text(x) AS
  CASE WHEN isnan(x) THEN 'NaN'
       WHEN isinf(x) THEN CASE WHEN x > 0 THEN 'Infinity' ELSE '-Infinity' END
       WHEN abs(x) < 9007199254740992 AND x = trunc(x) THEN x::BIGINT::VARCHAR
       WHEN x = trunc(x) AND abs(x) < 1e21 THEN regexp_replace(to_json(x)::VARCHAR, '\.0$', '')
       WHEN contains(to_json(x)::VARCHAR, 'e') THEN regexp_replace(to_json(x)::VARCHAR, 'e(\d)', 'e+\1')
       ELSE to_json(x)::VARCHAR
  END;

-- A JSON number, or a string when JavaScript has no such number (NaN, Infinity).
CREATE TEMP MACRO venue_etl_number_json(x) AS
  CASE WHEN isfinite(x) THEN venue_etl_number_text(x) ELSE '"' || venue_etl_number_text(x) || '"' END;

-- An integer as JSON: a string beyond 2^53, where a JSON number would lose digits.
CREATE TEMP MACRO venue_etl_integer_json(x) AS
  CASE WHEN x BETWEEN -9007199254740991 AND 9007199254740991 THEN x::VARCHAR ELSE '"' || x::VARCHAR || '"' END;

-- A JSON string as JSON.stringify writes it: quote and backslash escaped, the control characters
-- as \b \f \n \r \t or \u00xx in lower case (DuckDB's to_json writes \u001F), nothing else.
-- Character by character only for the few strings that hold one.
CREATE TEMP MACRO venue_etl_json_string(s) AS
  CASE WHEN NOT regexp_matches(s, '[\x00-\x1f"\\]') THEN '"' || s || '"'
       ELSE '"' || array_to_string(list_transform(string_split(s, ''), c ->
              CASE WHEN c = '"' THEN '\"' WHEN c = '\' THEN '\\'
                   WHEN c = chr(8) THEN '\b' WHEN c = chr(12) THEN '\f' WHEN c = chr(10) THEN '\n'
                   WHEN c = chr(13) THEN '\r' WHEN c = chr(9) THEN '\t'
                   WHEN ord(c) < 32 THEN '\u00' || lower(lpad(hex(ord(c)), 2, '0'))
                   ELSE c END), '') || '"'
  END;

-- RFC 4180: a field with a comma, quote or line break is quoted, its quotes doubled.
-- (contains, not a regular expression: 0.23 s against 0.31 s for 10M short texts)
CREATE TEMP MACRO venue_etl_csv_field(s) AS
  CASE WHEN contains(s, ',') OR contains(s, '"') OR contains(s, chr(10)) OR contains(s, chr(13)) THEN '"' || replace(s, '"', '""') || '"' ELSE s END;

-- ISO 8601 days (of the years 1000-9999).
CREATE TEMP MACRO venue_etl_date_text(d) AS strftime(d, '%Y-%m-%d');

-- 2026-01-02T03:04:05.123456: microseconds kept, trailing zeros of the fraction dropped (a UTC
-- TIMESTAMPTZ is passed as timezone('UTC', ts) and gets a 'Z').
CREATE TEMP MACRO venue_etl_timestamp_text(ts) AS
  strftime(ts, '%Y-%m-%dT%H:%M:%S')
  || CASE WHEN epoch_us(ts) % 1000000 = 0 THEN ''
          ELSE '.' || rtrim(lpad(((epoch_us(ts) % 1000000 + 1000000) % 1000000)::VARCHAR, 6, '0'), '0') END;
