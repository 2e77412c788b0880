-- Records a failed slice. $1 = run id, $2 = stream, $3 = scope id, $4 / $5 = window dates
-- (or NULL), $6 = error code, $7 = message (already scrubbed of secrets), $8 = when (NULL: now).
INSERT INTO sync_errors (run_id, stream, scope_id, window_from, window_to, error_code, message, "at")
VALUES ($1, $2, $3, $4::DATE, $5::DATE, $6, $7, coalesce($8::TIMESTAMPTZ, now()));
