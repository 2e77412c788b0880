/** The warehouse layer: one DuckDB file, its schema, and every write venue-etl makes to it. */
export { openWarehouse } from './open.js';
export type { OpenWarehouseOptions } from './open.js';
export { Warehouse } from './warehouse.js';
export type { SnapshotOptions, OpenBackfillOptions } from './warehouse.js';
export type { SliceCommit, CursorMove } from './slice-commit.js';
export { commitSlicesIn } from './commit-slices.js';
export type { CommitSlicesResult } from './commit-slices.js';
export type { MigrationStep } from './migrations.js';
export type { Session, Row } from './session.js';
export { applyCursorMoves, moveCursor } from './cursors.js';
export type { CursorRow, CursorMoveRequest } from './cursors.js';
export { newRunId } from './runs.js';
export type { RunStatus, RunTotals, RunRow } from './runs.js';
export type { SyncErrorRecord, SyncErrorRow } from './sync-errors.js';
export type { RoleKind, RoleRow, RolesOutcome } from './roles.js';
export type { AccountRow, AccountsOutcome } from './accounts.js';
export { backfillId, backfillSliceKey } from './backfills.js';
export type { BackfillSlicePlan, BackfillState } from './backfills.js';
