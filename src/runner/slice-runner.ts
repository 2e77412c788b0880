import type { ApiClient } from '../api/client.js';
import { isSnapshotEndpoint, type Catalogue, type ResolvedIds } from '../catalogue/index.js';
import { accountRows, extractAnalytics, extractRoles, fetchAccounts, type ExtractContext } from '../extract/index.js';
import type { Logger } from '../log/index.js';
import type { DriftReporter } from '../normalize/index.js';
import { requestCount, streamKey, type Slice } from '../plan/index.js';
import type { CursorMove, SliceCommit, Warehouse } from '../warehouse/index.js';
import type { GroupCommitter } from './group-committer.js';

export interface SliceRunnerContext {
  readonly catalogue: Catalogue;
  readonly client: ApiClient;
  readonly warehouse: Warehouse;
  readonly committer: GroupCommitter;
  readonly drift: DriftReporter;
  readonly logger: Logger;
  readonly runId: string;
  readonly pageSize: number;
  readonly accountsBatchSize: number;
  /** Whether day-grain summaries are also configured (who owns single-day month periods). */
  readonly dayGrainConfigured: boolean;
  /** How cursors move: nightly sync advances, backfill extends. */
  cursorFor(slice: Slice): CursorMove | undefined;
  backfillFor(slice: Slice): { backfillId: string; sliceKey: string } | undefined;
  readonly signal?: AbortSignal;
  /** Snapshot time of roles and accounts. */
  readonly at: Date;
  /**
   * Runs the extraction of a slice (its `requests` and their normalization) under the run's
   * limit of requests being extracted. Waiting for the commit happens outside it: a slice whose
   * rows wait for their group holds nothing, so extraction goes on while the warehouse commits.
   */
  extracting<T>(requests: number, work: () => Promise<T>): Promise<T>;
}

/** Extracts one slice and commits it; resolves with the rows it extracted. */
export async function runSlice(slice: Slice, ctx: SliceRunnerContext): Promise<number> {
  const endpoint = slice.endpoint;
  if (isSnapshotEndpoint(endpoint)) {
    // Snapshots commit through the group committer like every slice: in a group's transaction,
    // counted in the run's rows written; waiting for the commit holds no extraction slot.
    const snapshot = await ctx.extracting(1, () => extractSnapshot(slice, ctx));
    const cursor = ctx.cursorFor(slice);
    await ctx.committer.submit(
      {
        stream: slice.stream,
        scopeId: slice.scopeId,
        windowFrom: slice.windowFrom,
        windowTo: slice.windowTo,
        ...snapshot.commit,
        ...(cursor ? { cursor } : {}),
      },
      snapshot.rows,
    );
    return snapshot.rows;
  }
  const extracted = await ctx.extracting(requestCount(slice), async () => {
    await ctx.committer.room();
    return extractAnalytics(slice, extractContext(ctx));
  });
  if (extracted.outsideWindow > 0) {
    ctx.logger.warn(
      { stream: slice.stream, scopeId: slice.scopeId, points: extracted.outsideWindow },
      'the API sent points outside the requested window; they were not loaded',
    );
  }
  const cursor = ctx.cursorFor(slice);
  const backfill = ctx.backfillFor(slice);
  await ctx.committer.submit(
    {
      stream: slice.stream,
      scopeId: slice.scopeId,
      windowFrom: slice.windowFrom,
      windowTo: slice.windowTo,
      ...(extracted.series
        ? { series: extracted.series, ...(slice.grain === 'hour' ? { seriesGrain: 'hour' as const, cursorStream: streamKey(slice.stream, slice.grain) } : {}) }
        : {}),
      ...(extracted.summaries
        ? {
            summaries: {
              rows: extracted.summaries,
              grain: slice.grain === 'month' ? 'month' : 'day',
              ownsSingleDayPeriods: slice.grain === 'month' && !ctx.dayGrainConfigured,
            },
          }
        : {}),
      ...(cursor ? { cursor } : {}),
      ...(backfill ? { backfill } : {}),
    },
    extracted.rows,
  );
  return extracted.rows;
}

interface Snapshot {
  readonly commit: Pick<SliceCommit, 'roles' | 'accounts'>;
  readonly rows: number;
}

/** Roles and accounts: fetched whole, committed as one snapshot. */
async function extractSnapshot(slice: Slice, ctx: SliceRunnerContext): Promise<Snapshot> {
  const endpoint = slice.endpoint;
  if (endpoint.kind === 'roles') {
    const roles = await extractRoles(slice, extractContext(ctx));
    const kind = endpoint.scope === 'project' ? 'project' : 'venue';
    return { commit: { roles: { kind, rows: roles, at: ctx.at } }, rows: roles.length };
  }
  if (endpoint.kind === 'accounts') {
    const rows = ctx.catalogue.rowsOf(slice.stream);
    const ids = await resolvedIds(rows.find((row) => row.resolve)?.resolve, ctx.warehouse);
    const found = await fetchAccounts(ctx.client, rows, ids, {
      batchSize: ctx.accountsBatchSize,
      pageSize: ctx.pageSize,
      ...(ctx.signal ? { signal: ctx.signal } : {}),
    });
    if (found.missingIds.length > 0) {
      ctx.logger.warn(
        { stream: slice.stream, missing: found.missingIds.length, sample: found.missingIds.slice(0, 5) },
        'accounts referenced by roles were not returned by the API (deleted, or not visible to this token)',
      );
    }
    const accounts = accountRows(rows, ids, found, ctx.drift);
    return { commit: { accounts: { rows: accounts, at: ctx.at } }, rows: accounts.length };
  }
  throw new Error(`not a snapshot stream: ${slice.stream}`);
}

/**
 * The ids a row resolves from its parents: those the current (committed) rows of the parent
 * streams name, so a run that took a roles snapshot looks up exactly the accounts it names.
 */
async function resolvedIds(resolve: ResolvedIds | undefined, warehouse: Warehouse): Promise<string[]> {
  if (resolve === undefined) return [];
  switch (resolve.relationship) {
    case 'account':
      return warehouse.currentRoleAccountIds();
  }
}

function extractContext(ctx: SliceRunnerContext): ExtractContext {
  return { source: ctx.client, drift: ctx.drift, pageSize: ctx.pageSize, ...(ctx.signal ? { signal: ctx.signal } : {}) };
}
