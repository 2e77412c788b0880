-- The API's rate limit as the latest finished run against this API left it
-- (docs/rate-limits.md): requests/s, NULL when that run knew none. $1 = the API's URL as runs record it.
SELECT json_extract(detail, '$.api.rateLimitPerSecond')::VARCHAR AS rate_limit
  FROM sync_runs
 WHERE finished_at IS NOT NULL
   AND json_extract_string(detail, '$.api.url') = $1
 ORDER BY run_id DESC
 LIMIT 1;
