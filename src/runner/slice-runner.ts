import { isSnapshotEndpoint } from '../catalogue/index.js';
import type { ApiClient } from '../api/client.js';
import { fetchAccounts } from '../extract/fetch-accounts.js';
import type { Logger } from '../log/index.js';
import { accountFromResource, roleFromResource, wrongScope, type DriftReporter } from '../normalize/index.js';
import { requestCount, type Slice } from '../plan/index.js';
import type { CursorMove, SliceCommit } from '../warehouse/index.js';
import { extractAnalytics } from './extract-analytics.js';
import type { GroupCommitter } from './group-committer.js';
import { placeholderValues, requestPath } from './request-path.js';
import type { Warehouse } from '../warehouse/index.js';

export interface SliceRunnerContext {
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
      { stream: slice.stream, scopeId: slice.scopeId, windowFrom: slice.windowFrom, windowTo: slice.windowTo, ...snapshot.commit, ...(cursor ? { cursor } : {}) },
      snapshot.rows,
    );
    return snapshot.rows;
  }
  const extracted = await ctx.extracting(requestCount(slice), async () => {
    await ctx.committer.room();
    return extractAnalytics(slice, { source: ctx.client, drift: ctx.drift, pageSize: ctx.pageSize, signal: ctx.signal });
  });
  if (extracted.outsideWindow > 0) {
    ctx.logger.warn({ stream: slice.stream, scopeId: slice.scopeId, points: extracted.outsideWindow }, 'the API sent points outside the requested window; they were not loaded');
  }
  const cursor = ctx.cursorFor(slice);
  const backfill = ctx.backfillFor(slice);
  await ctx.committer.submit(
    {
      stream: slice.stream,
      scopeId: slice.scopeId,
      windowFrom: slice.windowFrom,
      windowTo: slice.windowTo,
      ...(extracted.series ? { series: extracted.series } : {}),
      ...(extracted.summaries
        ? { summaries: { rows: extracted.summaries, grain: slice.grain ?? 'day', ownsSingleDayPeriods: slice.grain === 'month' && !ctx.dayGrainConfigured } }
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
    const path = requestPath(endpoint, placeholderValues(endpoint, slice.scopeId), {});
    const roles = [];
    let page = 0;
    for await (const document of ctx.client.paginate(path, { stream: slice.stream, signal: ctx.signal, pageSize: ctx.pageSize })) {
      page += 1;
      for (const [index, resource] of document.data.entries()) {
        roles.push(roleFromResource(endpoint, resource, slice.scopeId, `page ${page} data[${index}]`, ctx.drift));
      }
    }
    const kind = endpoint.scope === 'project' ? 'project' : 'venue';
    return { commit: { roles: { kind, rows: roles, at: ctx.at } }, rows: roles.length };
  }
  if (endpoint.kind === 'accounts') {
    const ids = await ctx.warehouse.currentRoleAccountIds();
    const found = await fetchAccounts(ctx.client, ids, { batchSize: ctx.accountsBatchSize, pageSize: ctx.pageSize, signal: ctx.signal });
    if (found.missingIds.length > 0) {
      ctx.logger.warn({ stream: slice.stream, missing: found.missingIds.length, sample: found.missingIds.slice(0, 5) }, 'accounts referenced by roles were not returned by the API (deleted, or not visible to this token)');
    }
    // Only the accounts asked for (filter[id][in]) are stored: another one in the answer is an
    // answer about something else, and storing it would invent an account the roles never named.
    const asked = new Set(ids.map((id) => id.toLowerCase()));
    found.accounts.forEach((resource, index) => {
      if (!asked.has(resource.id.toLowerCase())) throw wrongScope(slice.stream, `data[${index}].id`, `is ${resource.id}, which no request asked for (filter[id][in])`);
    });
    const meId = found.me.id;
    const rows = found.accounts
      .filter((resource) => resource.id !== meId)
      .map((resource, index) => accountFromResource(endpoint, resource, false, `data[${index}]`, ctx.drift));
    rows.push(accountFromResource(endpoint, found.me, true, 'me.data', ctx.drift));
    return { commit: { accounts: { rows, at: ctx.at } }, rows: rows.length };
  }
  throw new Error(`not a snapshot stream: ${slice.stream}`);
}
