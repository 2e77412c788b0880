import { setMaxListeners } from 'node:events';
import type { EndpointRow } from '../catalogue/index.js';
import { accountFromResource, wrongScope, type AccountSnapshotRow, type DriftReporter, type ResourceLike } from '../normalize/index.js';
import type { DocumentSource } from './document-source.js';
import { fetchResources, type FoundResource } from './fetch-resources.js';
import { requestPath } from './requests.js';

/** Beyond ~2000 characters some proxies and servers refuse a URL (414) or cut it. */
export const DEFAULT_MAX_URL_LENGTH = 2000;

export interface FetchAccountsOptions {
  /** Ids per batched request (api.accountsBatchSize). */
  readonly batchSize: number;
  readonly pageSize: number;
  readonly signal?: AbortSignal;
  /** Longest first-page URL built, base URL and page parameters included. */
  readonly maxUrlLength?: number;
}

export interface FetchAccountsResult {
  /** Every account of the rows that resolve ids, once each, in request order. */
  readonly accounts: ResourceLike[];
  /** Requested ids the API did not return (deleted, or not visible to the token). */
  readonly missingIds: string[];
  /** The caller's own account, from the caller row. */
  readonly me: ResourceLike;
}

/**
 * The resources of the accounts stream's rows: the ids resolved from the roles, in batches
 * (each batch paginated), and the caller's own account. Requests run side by side under the
 * client's throttle; the first failure aborts the others and is the one thrown.
 */
export async function fetchAccounts(
  source: DocumentSource,
  rows: readonly EndpointRow[],
  ids: Iterable<string>,
  options: FetchAccountsOptions,
): Promise<FetchAccountsResult> {
  const requested = uniqueIds(ids);
  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  // Every batch in flight listens on it (1,000 venues name ~600 accounts: 14 batches at once), so
  // more than Node's default of 10 listeners is normal here, not a leak.
  setMaxListeners(0, signal);
  let firstError: unknown;
  const failFast = (error: unknown): never => {
    if (firstError === undefined) {
      firstError = error;
      controller.abort(error);
    }
    throw error;
  };
  const requests = rows.flatMap((row) =>
    pathsOf(row, requested, source.baseUrl, options).map((path) =>
      fetchResources(source, row, path, { stream: row.stream, pageSize: options.pageSize, signal }).then((found) => ({ row, found }), failFast),
    ),
  );
  // Wait for every request to settle, so none is still running when this function returns.
  await Promise.allSettled(requests);
  if (firstError !== undefined) throw firstError;

  const accounts = new Map<string, ResourceLike>();
  let me: ResourceLike | undefined;
  for (const { row, found } of await Promise.all(requests)) {
    if (row.caller) {
      me = onlyResource(found);
      continue;
    }
    for (const { resource } of found) {
      const key = idOf(resource).toLowerCase();
      if (!accounts.has(key)) accounts.set(key, resource);
    }
  }
  if (me === undefined) throw new Error('the accounts stream has no caller row');
  const missingIds = requested.filter((id) => !accounts.has(id.toLowerCase()));
  return { accounts: [...accounts.values()], missingIds, me };
}

/**
 * The accounts stream as rows: the accounts asked for, and the caller's own (`is_me`). Only the
 * accounts asked for are stored: another one in the answer is an answer about something else,
 * and storing it would invent an account the roles never named.
 */
export function accountRows(rows: readonly EndpointRow[], ids: readonly string[], found: FetchAccountsResult, drift: DriftReporter): AccountSnapshotRow[] {
  const row = rows.find((candidate) => !candidate.caller) ?? rows[0]!;
  const caller = rows.find((candidate) => candidate.caller) ?? row;
  const asked = new Set(ids.map((id) => id.toLowerCase()));
  found.accounts.forEach((resource, index) => {
    if (!asked.has(idOf(resource).toLowerCase()))
      throw wrongScope(row.stream, `data[${index}].id`, `is ${resource.id}, which no request asked for (${Object.keys(row.query ?? {}).join(', ')})`);
  });
  const meId = found.me.id;
  const accounts = found.accounts
    .filter((resource) => resource.id !== meId)
    .map((resource, index) => accountFromResource(row, resource, false, `data[${index}]`, drift));
  accounts.push(accountFromResource(caller, found.me, true, 'me.data', drift));
  return accounts;
}

/** The first-page paths of a row: one, or one per batch of the ids it resolves. */
function pathsOf(row: EndpointRow, ids: readonly string[], baseUrl: string, options: FetchAccountsOptions): string[] {
  const placeholder = row.resolve?.placeholder;
  if (placeholder === undefined) return [requestPath(row, {}, {}, options.pageSize)];
  const fixedLength = `${baseUrl.replace(/\/+$/, '')}${requestPath(row, { [placeholder]: [] }, {}, options.pageSize)}`.length;
  return planBatches(ids, options.batchSize, (options.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH) - fixedLength).map((batch) =>
    requestPath(row, { [placeholder]: batch }, {}, options.pageSize),
  );
}

function onlyResource(found: readonly FoundResource[]): ResourceLike {
  const [first] = found;
  if (first === undefined) throw new Error('a single document without a resource');
  return first.resource;
}

/** The envelope check refuses null ids; an empty one matches nothing asked for. */
function idOf(resource: ResourceLike): string {
  return resource.id ?? '';
}

/** First spelling of each id; UUIDs compare case-insensitively. */
function uniqueIds(ids: Iterable<string>): string[] {
  const seen = new Map<string, string>();
  for (const id of ids) {
    const trimmed = id.trim();
    if (trimmed !== '' && !seen.has(trimmed.toLowerCase())) seen.set(trimmed.toLowerCase(), trimmed);
  }
  return [...seen.values()];
}

/**
 * Ids grouped so that no group exceeds `batchSize` ids or `maxFilterLength` characters of filter
 * value once URL-encoded and comma-delimited. An id too long to share a URL goes alone.
 */
export function planBatches(ids: readonly string[], batchSize: number, maxFilterLength: number): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let length = 0;
  for (const id of ids) {
    const encoded = encodeURIComponent(id).length;
    if (current.length > 0 && (current.length >= batchSize || length + 1 + encoded > maxFilterLength)) {
      batches.push(current);
      current = [];
    }
    // A comma before every id but the first.
    length = current.length === 0 ? encoded : length + 1 + encoded;
    current.push(id);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}
