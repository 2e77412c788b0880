import type { AccountSnapshotRow, RoleSnapshotRow } from '../normalize/index.js';
import type { CursorMove, SliceCommit } from '../warehouse/slice-commit.js';

export interface RunTotals {
  readonly status: 'succeeded' | 'partial' | 'failed';
  readonly requests: number;
  readonly retries: number;
  readonly rowsWritten: number;
  readonly errors: number;
  readonly detail: Readonly<Record<string, unknown>>;
}

export interface SliceFailure {
  readonly stream: string;
  readonly scopeId: string;
  readonly windowFrom: string | null;
  readonly windowTo: string | null;
  readonly errorCode: string;
  readonly message: string;
}

/** What a run needs from the warehouse; src/warehouse implements it over DuckDB. */
export interface WarehousePort {
  commitSlices(runId: string, commits: readonly SliceCommit[]): Promise<{ readonly rowsWritten: number }>;
  /** `stream|scopeId` → cursor date. */
  readCursors(): Promise<Map<string, string>>;
  startRun(job: string, detail: Readonly<Record<string, unknown>>): Promise<string>;
  finishRun(runId: string, totals: RunTotals): Promise<void>;
  recordSliceError(runId: string, failure: SliceFailure): Promise<void>;
  /** Versions roles against the current ones; returns rows written (opened + closed versions). */
  applyRoles(kind: 'venue' | 'project', scopeId: string, roles: readonly RoleSnapshotRow[], runId: string, at: Date, cursor?: CursorMove): Promise<number>;
  upsertAccounts(accounts: readonly AccountSnapshotRow[], runId: string, at: Date, cursor?: CursorMove): Promise<number>;
  /** Account ids the current venue and project roles point to. */
  currentRoleAccountIds(): Promise<string[]>;
  /** Finds the backfill with this id (same command, same parameters) or records a new one. */
  openBackfill(backfillId: string, command: string, params: Readonly<Record<string, unknown>>): Promise<BackfillState>;
  /** Forgets the progress of a backfill (`--force`). */
  resetBackfill(backfillId: string): Promise<void>;
  finishBackfill(backfillId: string): Promise<void>;
}

export interface BackfillState {
  readonly created: boolean;
  readonly finished: boolean;
  readonly doneSliceKeys: ReadonlySet<string>;
}
