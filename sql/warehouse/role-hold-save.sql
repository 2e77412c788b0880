-- Holds a roles answer (after role-hold-forget.sql dropped the scope's earlier one). $1 = kind,
-- $2 = scope id, $3 = digest, $4 = open roles, $5 = roles it would close, $6 = held since, $7 = run id.
INSERT INTO role_snapshot_holds (kind, scope_id, snapshot_digest, open_roles, would_close, held_since, held_by_run)
VALUES ($1, $2::UUID, $3, $4, $5, $6::TIMESTAMPTZ, $7);
