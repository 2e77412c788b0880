-- 007_role_snapshot_holds: roles answers held back instead of applied (docs/warehouse.md, "Held
-- snapshots"). An answer that would close more than half of a venue's or project's open roles is
-- applied only when a later run reads the same answer again; until then its scope has one row
-- here and its roles stay as they were. Rows are few (the scopes held now): normally none.
CREATE TABLE role_snapshot_holds (
  kind            VARCHAR NOT NULL,      -- 'venue' | 'project'
  scope_id        UUID NOT NULL,         -- the venue or project
  snapshot_digest VARCHAR NOT NULL,      -- SHA-1 of the held answer's roles, sorted (base64)
  open_roles      INTEGER NOT NULL,      -- open role versions when it was last held
  would_close     INTEGER NOT NULL,      -- of those, the roles the answer lacks
  held_since      TIMESTAMPTZ NOT NULL,  -- snapshot instant of the first run that held this answer
  held_by_run     VARCHAR NOT NULL       -- the last run that held it
);
