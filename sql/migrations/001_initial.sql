-- 001_initial: every table and view of the public contract (docs/warehouse.md) plus the internal
-- bookkeeping tables (migrations, backfill progress).
--
-- Conventions
--  * Identifiers the API sends in UUID form are UUID (16 bytes, sorts and joins fast); ids that
--    are only "a string" upstream (created_by_id, scope ids that may be venues or projects)
--    stay VARCHAR.
--  * Every instant is TIMESTAMPTZ (UTC in, UTC out); calendar dates are DATE.
--  * The two big fact tables (series_points, summary_values) have NO primary key: a key makes
--    bulk loading about 4x slower and the file 3x larger. Their uniqueness comes from the
--    loader, which replaces whole windows (venue, stream, date range) in one transaction and
--    refuses batches with duplicate keys. `venue-etl check` looks for duplicates anyway.
--  * Small tables keep their natural keys: they are cheap there and catch mistakes.
--
-- The migration runner records this file in schema_migrations in the same transaction.

CREATE TABLE schema_migrations (
  version    INTEGER PRIMARY KEY,           -- the NNN of NNN_name.sql
  name       VARCHAR NOT NULL,
  applied_at TIMESTAMPTZ NOT NULL DEFAULT current_timestamp
);

-- ---------------------------------------------------------------------------------------
-- Analytics facts
-- ---------------------------------------------------------------------------------------

-- One row per venue, stream, metric, granularity, ts. `value` is NULL where the API sent
-- null (rating-history's rates-average for a period without rates).
CREATE TABLE series_points (
  venue_id    UUID        NOT NULL,
  stream      VARCHAR     NOT NULL,
  metric      VARCHAR     NOT NULL,       -- the API's attribute name, verbatim
  -- 'hour' | 'day': spacing of the timestamps sent. An ENUM compares and exports like text
  -- but costs one byte per row and no string compression on load (~15% of the insert).
  granularity ENUM ('hour', 'day') NOT NULL,
  ts          TIMESTAMPTZ NOT NULL,
  value       DOUBLE,
  run_id      VARCHAR     NOT NULL,       -- sync_runs.run_id of the run that wrote the row
  loaded_at   TIMESTAMPTZ NOT NULL
);

-- One row per venue, stream, metric, period. A 'day' period has period_end = period_start;
-- a 'month' period spans the month (cut to the requested range at its edges).
CREATE TABLE summary_values (
  venue_id     UUID    NOT NULL,
  stream       VARCHAR NOT NULL,
  metric       VARCHAR NOT NULL,          -- rating-summary pairs become rates_per_value.1 … .5
  period_start DATE    NOT NULL,
  period_end   DATE    NOT NULL,
  value        DOUBLE,
  run_id       VARCHAR NOT NULL,
  loaded_at    TIMESTAMPTZ NOT NULL
);

-- ---------------------------------------------------------------------------------------
-- Access roles (slowly changing: one row per role version; valid_to NULL while current)
-- ---------------------------------------------------------------------------------------

-- The same role id can appear under several venues (roles inherited from the project), so
-- a version is identified by venue, role and valid_from.
CREATE TABLE venue_roles (
  role_id        UUID        NOT NULL,
  venue_id       UUID        NOT NULL,
  account_id     UUID,
  name           VARCHAR,
  inherited_from VARCHAR,                 -- 'project-roles' for a role inherited from the project
  permissions    VARCHAR[]   NOT NULL,    -- sorted, so a reordering upstream is not a change
  valid_from     TIMESTAMPTZ NOT NULL,
  valid_to       TIMESTAMPTZ,
  run_id         VARCHAR     NOT NULL,
  PRIMARY KEY (venue_id, role_id, valid_from)
);

CREATE TABLE project_roles (
  role_id     UUID        NOT NULL,
  project_id  UUID        NOT NULL,
  account_id  UUID,
  name        VARCHAR,
  permissions VARCHAR[]   NOT NULL,
  valid_from  TIMESTAMPTZ NOT NULL,
  valid_to    TIMESTAMPTZ,
  run_id      VARCHAR     NOT NULL,
  PRIMARY KEY (project_id, role_id, valid_from)
);

CREATE VIEW current_venue_roles AS
  SELECT * FROM venue_roles WHERE valid_to IS NULL;

CREATE VIEW current_project_roles AS
  SELECT * FROM project_roles WHERE valid_to IS NULL;

-- ---------------------------------------------------------------------------------------
-- Accounts (one row per account, attributes as last seen)
-- ---------------------------------------------------------------------------------------

CREATE TABLE accounts (
  account_id    UUID PRIMARY KEY,
  email         VARCHAR,
  full_name     VARCHAR,
  confirmed_at  TIMESTAMPTZ,
  language      VARCHAR,
  roles_names   VARCHAR[],
  tags          JSON,
  created_by_id VARCHAR,                  -- "string or null" upstream: not necessarily a UUID
  is_me         BOOLEAN     NOT NULL DEFAULT false,
  first_seen_at TIMESTAMPTZ NOT NULL,
  last_seen_at  TIMESTAMPTZ NOT NULL,
  run_id        VARCHAR     NOT NULL      -- the run that last changed an attribute
);

-- ---------------------------------------------------------------------------------------
-- Upsert events (docs/api.md §6) and what they are merged into
-- ---------------------------------------------------------------------------------------

CREATE TABLE upsert_events (
  event_id    VARCHAR PRIMARY KEY,        -- SHA-256 hex of the raw body: a redelivery is a no-op
  received_at TIMESTAMPTZ NOT NULL,
  user_id     UUID,
  venue_id    UUID,
  body        JSON NOT NULL
);

CREATE TABLE users (
  user_id         UUID PRIMARY KEY,
  email           VARCHAR,
  email_confirmed BOOLEAN,
  first_name      VARCHAR,
  last_name       VARCHAR,
  phone           VARCHAR,
  phone_confirmed BOOLEAN,
  language        VARCHAR,
  birth_date      DATE,
  gender          VARCHAR,
  is_subscribed   BOOLEAN,
  updated_at      TIMESTAMPTZ
);

CREATE TABLE venues (
  venue_id   UUID PRIMARY KEY,
  name       VARCHAR,
  address    VARCHAR,
  city       VARCHAR,
  country    VARCHAR,
  created_at TIMESTAMPTZ,
  updated_at TIMESTAMPTZ
);

CREATE TABLE user_venue_history (
  user_id        UUID NOT NULL,
  venue_id       UUID NOT NULL,
  visits_count   BIGINT,
  first_visit_on TIMESTAMPTZ,
  last_visit_on  TIMESTAMPTZ,
  updated_at     TIMESTAMPTZ,
  PRIMARY KEY (user_id, venue_id)
);

-- No key: which fields of an acceptance are always present is not specified upstream; the
-- merge deduplicates through event_id.
CREATE TABLE user_venue_agreements (
  user_id       UUID NOT NULL,
  venue_id      UUID NOT NULL,
  accepted_date TIMESTAMPTZ,
  texts         VARCHAR[],
  event_id      VARCHAR NOT NULL
);

-- ---------------------------------------------------------------------------------------
-- Sync bookkeeping
-- ---------------------------------------------------------------------------------------

-- Data of (stream, scope) is complete up to and including cursor_date. Moved only in the
-- transaction that commits the data, and never backwards.
CREATE TABLE sync_cursors (
  stream      VARCHAR     NOT NULL,
  scope_id    VARCHAR     NOT NULL,       -- venue id, project id, or a fixed scope ('accounts')
  cursor_date DATE        NOT NULL,
  updated_at  TIMESTAMPTZ NOT NULL,
  run_id      VARCHAR     NOT NULL,
  PRIMARY KEY (stream, scope_id)
);

CREATE TABLE sync_runs (
  run_id       VARCHAR PRIMARY KEY,       -- time-ordered: sorting by run_id sorts by start
  job          VARCHAR     NOT NULL,
  started_at   TIMESTAMPTZ NOT NULL,
  finished_at  TIMESTAMPTZ,
  status       VARCHAR     NOT NULL
               CHECK (status IN ('running', 'succeeded', 'partial', 'failed')),
  requests     BIGINT      NOT NULL DEFAULT 0,
  retries      BIGINT      NOT NULL DEFAULT 0,
  rows_written BIGINT      NOT NULL DEFAULT 0,
  errors       BIGINT      NOT NULL DEFAULT 0,
  detail       JSON                       -- includes the pid of the process that ran it
);

CREATE TABLE sync_errors (
  run_id      VARCHAR     NOT NULL,
  stream      VARCHAR     NOT NULL,
  scope_id    VARCHAR     NOT NULL,
  window_from DATE,
  window_to   DATE,
  error_code  VARCHAR     NOT NULL,
  message     VARCHAR     NOT NULL,       -- scrubbed of secrets by the caller
  "at"        TIMESTAMPTZ NOT NULL        -- quoted: AT is a keyword (AT TIME ZONE)
);

-- ---------------------------------------------------------------------------------------
-- Backfill progress: what a resumed `venue-etl backfill` skips
-- ---------------------------------------------------------------------------------------

-- backfill_id is derived from the normalized parameters, so the same command finds its row.
CREATE TABLE backfills (
  backfill_id VARCHAR PRIMARY KEY,
  command     VARCHAR     NOT NULL,
  params      JSON        NOT NULL,
  created_at  TIMESTAMPTZ NOT NULL,
  finished_at TIMESTAMPTZ,
  status      VARCHAR     NOT NULL CHECK (status IN ('running', 'finished'))
);

-- A slice row exists once planned ('pending') and becomes 'done' in the transaction that
-- commits the slice's data.
CREATE TABLE backfill_slices (
  backfill_id  VARCHAR NOT NULL,
  slice_key    VARCHAR NOT NULL,          -- stream|scope|from|to, unique within a backfill
  stream       VARCHAR NOT NULL,
  scope_id     VARCHAR NOT NULL,
  window_from  DATE    NOT NULL,
  window_to    DATE    NOT NULL,
  status       VARCHAR NOT NULL CHECK (status IN ('pending', 'done')),
  rows_written BIGINT,
  done_at      TIMESTAMPTZ,
  PRIMARY KEY (backfill_id, slice_key)
);
