-- The last settings of a read command's DuckDB, after its views and macros and before the first
-- statement typed by a user (src/readside/lock-down.ts). memory_limit is set just before this.
-- No spilling: a read command writes no file, not even a temporary one; past the memory limit a
-- query fails (VENUE_SQL_OUT_OF_MEMORY) instead of growing.
SET max_temp_directory_size = '0B';
-- No extension is installed or loaded on a user's behalf, no secret is stored on disk.
SET autoinstall_known_extensions = false;
SET autoload_known_extensions = false;
SET allow_persistent_secrets = false;
-- Nothing above (nor memory_limit, allowed_paths, enable_external_access) can be changed back;
-- only the session's time zone, which every connection sets to UTC when it opens (read-connection.ts).
SET allowed_configs = ['TimeZone'];
SET lock_configuration = true;
