import type { DuckDBConnection, DuckDBInstance, DuckDBValue } from '@duckdb/node-api';
import { EtlError, UsageError } from '../errors/index.js';
import type { SliceCommit } from './slice-commit.js';
import type { MigrationStep } from './migrations.js';
import { Mutex } from './mutex.js';
import { isSize } from '../infra/memory-size.js';
import { WriteRunMemory } from './write-run-memory.js';
import { sessionOf, type Row, type Session } from './session.js';
import { writeFailed } from './errors.js';
import { warehouseFailure } from './warehouse-failure.js';
import { pauseBeforeCommit } from './test-hooks.js';
import { releaseInstance, usersOf } from './instances.js';
import { commitSlicesIn, type CommitSlicesResult } from './commit-slices.js';
import { applyCursorMoves, readCursors, readStreamCursors, readTableColumns, type CursorMoveRequest, type CursorRow } from './cursors.js';
import { finishRun, forgetRun, markAbandonedRuns, readRuns, rememberedRateLimit, startRun, type RunRow, type RunTotals } from './runs.js';
import { readSyncErrors, recordSyncErrors, type SyncErrorRecord, type SyncErrorRow } from './sync-errors.js';
import { currentRoleAccountIds } from './roles.js';
import { insertFailedRun, previousRunStatus, takeDeferredRuns, type FailedRunRecord } from './failed-runs.js';
import { planReset, resetIn, type ResetCounts, type ResetSelection } from './reset.js';
import { eventMergeSession, forgetJournalSegment, type EventMergeSession } from './event-merge.js';
import { doneSliceKeys, finishBackfill, openBackfill, planBackfillSlices, resetBackfill, type BackfillSlicePlan, type BackfillState } from './backfills.js';
import type { SliceKeySet } from '../plan/index.js';
import { createVenueLabels, readVenueCandidates, type VenueLabelInput } from './venue-labels.js';
import type { VenueCandidate } from './venue-candidate.js';

export interface OpenBackfillOptions {
  /** Defaults to backfillId(command, params). */
  readonly backfillId?: string;
  readonly slices?: readonly BackfillSlicePlan[];
}

/**
 * An open warehouse file. Writes are serialized on one connection (a connection has one
 * transaction at a time), reads use their own connection and see committed data only.
 * Open with `openWarehouse`.
 */
export class Warehouse {
  private readonly mutex = new Mutex();
  private reader: Promise<DuckDBConnection> | undefined;
  private closed = false;
  /** Set by startWriteRun: the run's memory settings and its own checkpoints. */
  private writeRun: WriteRunMemory | undefined;
  /** The corruption, full disk or fatal error after which this handle writes nothing more. */
  private stopped: EtlError | undefined;

  constructor(
    /** The path as configured (for messages). */
    readonly path: string,
    /** The resolved path (the instance registry's key). */
    private readonly absolutePath: string,
    readonly readOnly: boolean,
    private readonly instance: DuckDBInstance,
    private readonly writer: DuckDBConnection,
    /** One result per known migration: applied at this open, or already there. */
    readonly migrations: readonly MigrationStep[],
  ) {}

  /** A read-only query on committed data; rows as JSON-safe objects. */
  async query<T extends Row = Row>(sql: string, params?: readonly DuckDBValue[]): Promise<T[]> {
    const connection = await this.readConnection();
    try {
      return await sessionOf(connection).all<T>(sql, params);
    } catch (error) {
      throw this.stopOnFailure(error) ?? error;
    }
  }

  /**
   * The failure that stopped this handle's writes (VENUE_WAREHOUSE_CORRUPT, _DISK_FULL or
   * _FATAL), once one was met: every later write is refused with it, nothing more is tried.
   */
  get failure(): EtlError | undefined {
    return this.stopped;
  }

  /**
   * The coded failure an error is (src/warehouse/warehouse-failure.ts), remembered as the end
   * of this handle's writes: a corrupt file must not take more commits, a full disk or an
   * invalidated database would refuse each of them anyway.
   */
  private stopOnFailure(error: unknown): EtlError | undefined {
    const failure = warehouseFailure(this.path, error);
    if (failure !== undefined) this.stopped ??= failure;
    return failure;
  }

  /** The connection reads go through: the writer's when read-only, else a connection of their own. */
  private async readConnection(): Promise<DuckDBConnection> {
    this.assertOpen();
    if (this.readOnly) return this.writer;
    this.reader ??= this.instance.connect();
    return this.reader;
  }

  /**
   * Runs `work` in one transaction on the writing connection, after every earlier write of
   * this process: all of it commits, or none (the error is rethrown as an EtlError).
   * Do not call other write methods of this Warehouse from inside `work` (they would wait
   * for it forever): compose the Session functions instead (commitSlicesIn, applyCursorMoves).
   */
  async transaction<T>(work: (session: Session) => Promise<T>, what = 'warehouse write'): Promise<T> {
    this.assertWritable();
    return this.mutex.run(async () => {
      if (this.stopped) throw this.stopped;
      const session = sessionOf(this.writer);
      try {
        await this.writer.run('BEGIN TRANSACTION');
      } catch (error) {
        // An invalidated database refuses even this (DuckDB's "FATAL Error: Failed: database has been invalidated").
        throw this.stopOnFailure(error) ?? writeFailed(what, error);
      }
      try {
        const result = await work(session);
        await pauseBeforeCommit();
        await this.writer.run('COMMIT');
        return result;
      } catch (error) {
        // After a failed COMMIT DuckDB has already rolled back; ROLLBACK then just complains.
        await this.writer.run('ROLLBACK').catch(() => undefined);
        throw this.stopOnFailure(error) ?? writeFailed(what, error);
      }
    });
  }

  /**
   * Commits a group of slices in ONE transaction: per slice, the window's rows replace what
   * the warehouse held (only windows whose rows changed are rewritten) or its roles / accounts
   * snapshot is applied, the cursor moves, the backfill slice is marked done.
   */
  async commitSlices(runId: string, commits: readonly SliceCommit[]): Promise<CommitSlicesResult> {
    const result = await this.transaction((session) => commitSlicesIn(session, runId, commits), `committing ${commits.length} slice(s)`);
    const run = this.writeRun;
    if (run) {
      // The group is committed whatever follows: a release or checkpoint that fails ends the
      // run's own memory handling (DuckDB's defaults return), it does not fail the group. A
      // checkpoint that met a full disk has invalidated the database: the next write says so.
      await this.mutex
        .run(() => run.afterCommit())
        .catch((error: unknown) => {
          this.stopOnFailure(error);
          return this.endWriteRun(run);
        });
    }
    return result;
  }

  /**
   * Starts a write run (`sync`, `backfill`): bounds DuckDB's buffer pool (`SET memory_limit`,
   * for the whole instance) to `memoryLimit`, a size the config has validated ("128MB"), and
   * from now on releases the pool and checkpoints as the run commits, so that its memory does
   * not follow the size of the warehouse (src/warehouse/write-run-memory.ts). `close()` ends it.
   */
  async startWriteRun(memoryLimit: string): Promise<void> {
    this.assertWritable();
    // Validated again here: the size is written into the statement (SET takes no parameter).
    if (!isSize(memoryLimit)) {
      throw new UsageError(`warehouse.memoryLimit is not a size: ${memoryLimit}`, 'write a size such as "128MB" or "1GB"');
    }
    const run = new WriteRunMemory(this.writer, `${this.absolutePath}.wal`, memoryLimit, () => usersOf(this.absolutePath) > 1);
    await this.mutex.run(() => run.start());
    this.writeRun = run;
  }

  private async endWriteRun(run: WriteRunMemory): Promise<void> {
    if (this.writeRun !== run) return;
    this.writeRun = undefined;
    // Its last checkpoint writes the file: not after a failure that stopped the writes.
    if (this.stopped) return;
    await this.mutex.run(() => run.finish()).catch(() => undefined);
  }

  readCursors(stream?: string): Promise<CursorRow[]> {
    return readCursors(this.readSession(), stream);
  }

  /** Moves cursors outside a slice commit (e.g. a stream with nothing to load). */
  moveCursors(runId: string, moves: readonly CursorMoveRequest[]): Promise<number> {
    return this.transaction((session) => applyCursorMoves(session, runId, moves), 'moving cursors');
  }

  startRun(job: string, detail: Readonly<Record<string, unknown>> = {}): Promise<string> {
    return this.transaction((session) => startRun(session, job, detail), 'starting a run');
  }

  finishRun(runId: string, totals: RunTotals): Promise<void> {
    return this.transaction((session) => finishRun(session, runId, totals), 'finishing a run');
  }

  /** A run whose end cannot be recorded: the next run marks it failed (see forgetRun). */
  forgetRun(runId: string): void {
    forgetRun(runId);
  }

  /** Flags runs left 'running' by a dead process as failed; returns their ids. */
  markAbandonedRuns(): Promise<string[]> {
    return this.transaction((session) => markAbandonedRuns(session), 'marking abandoned runs');
  }

  /** Per stream, its oldest cursor: the newest day every scope of it has loaded. */
  readStreamCursors(): Promise<{ stream: string; oldestCursor: string }[]> {
    return readStreamCursors(this.readSession());
  }

  /** The columns of warehouse tables (lineage's schema facet). */
  readTableColumns(tables: readonly string[]): Promise<Map<string, { name: string; type: string }[]>> {
    return readTableColumns(this.readSession(), tables);
  }

  /** Records a run that failed before its first slice (finished at once). */
  recordFailedRun(run: FailedRunRecord): Promise<void> {
    return this.transaction((session) => insertFailedRun(session, run), 'recording a failed run');
  }

  /**
   * Moves the runs that failed while another process held this warehouse (deferFailedRun) into
   * `sync_runs`; returns how many.
   */
  async recordDeferredRuns(): Promise<number> {
    const taken = takeDeferredRuns(this.path);
    if (taken.runs.length === 0) return 0;
    await this.transaction(async (session) => {
      for (const run of taken.runs) await insertFailedRun(session, run);
    }, 'recording failed runs');
    taken.done();
    return taken.runs.length;
  }

  /** The status of `job`'s latest finished run before `runId`, if any. */
  previousRunStatus(job: string, runId: string): Promise<string | undefined> {
    return previousRunStatus(this.readSession(), job, runId);
  }

  readRuns(limit?: number): Promise<RunRow[]> {
    return readRuns(this.readSession(), limit);
  }

  /** The API's rate limit the latest finished run against `apiUrl` found (requests/s), if any. */
  rememberedRateLimit(apiUrl: string): Promise<number | undefined> {
    return rememberedRateLimit(this.readSession(), apiUrl);
  }

  recordSyncErrors(runId: string, errors: readonly SyncErrorRecord[]): Promise<void> {
    return this.transaction((session) => recordSyncErrors(session, runId, errors), 'recording failed slices');
  }

  readSyncErrors(runId?: string): Promise<SyncErrorRow[]> {
    return readSyncErrors(this.readSession(), runId);
  }

  /** Account ids the current venue and project roles point to (whose accounts to fetch). */
  currentRoleAccountIds(): Promise<string[]> {
    return currentRoleAccountIds(this.readSession());
  }

  /**
   * Runs one merge step of the receiver's journal in one transaction: `work` reads the
   * segment's offset, merges the records after it and saves the new offset through `merge`, so
   * rows and offset commit together (a crash loses nothing and applies nothing twice).
   */
  mergeEvents<T>(work: (merge: EventMergeSession) => Promise<T>): Promise<T> {
    return this.transaction((session) => work(eventMergeSession(session)), 'merging upsert events');
  }

  /** Forgets the offset of a journal segment that was fully merged and removed. */
  forgetJournalSegment(segment: string): Promise<void> {
    return this.transaction((session) => forgetJournalSegment(session, segment), 'merging upsert events');
  }

  /**
   * Finds (to resume) or records the backfill of (command, params), under `options.backfillId`
   * or an id derived from them; `options.slices` records the plan as pending slices.
   */
  openBackfill(command: string, params: unknown, options: OpenBackfillOptions = {}): Promise<BackfillState> {
    return this.transaction(async (session) => {
      const state = await openBackfill(session, command, params, options.backfillId);
      await planBackfillSlices(session, state.backfillId, options.slices ?? []);
      return state;
    }, 'opening a backfill');
  }

  resetBackfill(backfillId: string): Promise<void> {
    return this.transaction((session) => resetBackfill(session, backfillId), 'resetting a backfill');
  }

  async backfillDoneSlices(backfillId: string): Promise<SliceKeySet> {
    return doneSliceKeys({ connection: await this.readConnection() }, backfillId);
  }

  /**
   * Every venue known to the warehouse and the config (sql/views/venue-labels.sql, made on this
   * connection only): what `reset --venues` resolves names and id prefixes against, under the lock.
   */
  async venueCandidates(input: VenueLabelInput): Promise<VenueCandidate[]> {
    const session = sessionOf(await this.readConnection());
    await createVenueLabels(session, input);
    return readVenueCandidates(session);
  }

  /** What `reset` would forget and delete, per stream (a read). */
  planReset(selection: ResetSelection): Promise<ResetCounts[]> {
    return planReset(this.readSession(), selection);
  }

  /** Forgets cursors (and with `rows` deletes rows) of a selection, in ONE transaction. */
  reset(selection: ResetSelection, runId: string): Promise<Omit<ResetCounts, 'stream'>> {
    return this.transaction((session) => resetIn(session, selection, runId), 'resetting streams');
  }

  finishBackfill(backfillId: string): Promise<void> {
    return this.transaction((session) => finishBackfill(session, backfillId), 'finishing a backfill');
  }

  /** Waits for pending writes, then closes; the file lock is released with the last user. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.mutex.run(async () => undefined);
    // A write run's last checkpoint merges what its own checkpoints left (one merge per table).
    if (this.writeRun) await this.endWriteRun(this.writeRun);
    if (!this.readOnly && !this.stopped && usersOf(this.absolutePath) === 1) {
      // Closing the instance checkpoints synchronously, blocking the event loop for as long
      // as the WAL takes to fold in (a second after a large load); an explicit CHECKPOINT
      // runs on DuckDB's threads and leaves the close nothing to do.
      await this.writer.run('CHECKPOINT').catch(() => undefined);
    }
    if (this.reader) (await this.reader).closeSync();
    this.writer.closeSync();
    await releaseInstance(this.absolutePath);
  }

  private readSession(): Pick<Session, 'all'> {
    return { all: (sql, params) => this.query(sql, params) };
  }

  private assertOpen(): void {
    if (this.closed) throw new EtlError('VENUE_WAREHOUSE_CLOSED', `the warehouse ${this.path} is closed`);
  }

  private assertWritable(): void {
    this.assertOpen();
    if (this.readOnly) {
      throw new EtlError('VENUE_WAREHOUSE_READ_ONLY', `the warehouse ${this.path} was opened read-only`);
    }
  }
}
