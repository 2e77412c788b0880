import type { ApiClient } from '../api/client.js';
import { expectSingle, type JsonApiResource } from '../api/jsonapi.js';

export const ACCOUNTS_PATH = '/accounts/filtered-accounts/';
const FILTER = 'filter[id][in]=';
/** Beyond ~2000 characters some proxies and servers refuse a URL (414) or cut it. */
export const DEFAULT_MAX_URL_LENGTH = 2000;

export interface FetchAccountsOptions {
  /** Ids per `filter[id][in]` request (api.accountsBatchSize). */
  readonly batchSize: number;
  readonly pageSize: number;
  readonly signal?: AbortSignal;
  /** Longest first-page URL built, base URL and page parameters included. */
  readonly maxUrlLength?: number;
  readonly stream?: string;
}

export interface FetchAccountsResult {
  /** Every account the API returned, once each, in request order. */
  readonly accounts: JsonApiResource[];
  /** Requested ids the API did not return (deleted, or not visible to the token). */
  readonly missingIds: string[];
  /** The token's own account (spec 4.16). */
  readonly me: JsonApiResource;
}

/**
 * Accounts by id (spec 4.14) in batches, each batch paginated, plus the caller's own account
 * (4.16). Batches run side by side under the client's throttle; the first failure aborts the
 * others and is the one thrown.
 */
export async function fetchAccounts(client: ApiClient, ids: Iterable<string>, options: FetchAccountsOptions): Promise<FetchAccountsResult> {
  const requested = uniqueIds(ids);
  const fixedLength = `${client.baseUrl.replace(/\/+$/, '')}${ACCOUNTS_PATH}?${FILTER}&page[number]=1&page[size]=${options.pageSize}`.length;
  const batches = planBatches(requested, options.batchSize, (options.maxUrlLength ?? DEFAULT_MAX_URL_LENGTH) - fixedLength);

  const controller = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, controller.signal]) : controller.signal;
  const context = { stream: options.stream ?? 'accounts', signal };
  let firstError: unknown;
  const failFast = (error: unknown): never => {
    if (firstError === undefined) {
      firstError = error;
      controller.abort(error);
    }
    throw error;
  };

  const me = client
    .getDocument(`${ACCOUNTS_PATH}me/`, context)
    .then((document) => expectSingle(document, `GET ${ACCOUNTS_PATH}me/`).data)
    .catch(failFast);
  const pages = batches.map((batch) => collect(client.paginate(`${ACCOUNTS_PATH}?${FILTER}${batch.join(',')}`, { ...context, pageSize: options.pageSize })).catch(failFast));
  // Wait for every batch to settle, so no request is still running when this function returns.
  await Promise.allSettled([me, ...pages]);
  if (firstError !== undefined) throw firstError;

  const accounts = new Map<string, JsonApiResource>();
  for (const batch of await Promise.all(pages)) {
    for (const account of batch) {
      const key = account.id.toLowerCase();
      if (!accounts.has(key)) accounts.set(key, account);
    }
  }
  const missingIds = requested.filter((id) => !accounts.has(id.toLowerCase()));
  return { accounts: [...accounts.values()], missingIds, me: await me };
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
 * Ids, URL-encoded, grouped so that no group exceeds `batchSize` ids or `maxFilterLength`
 * characters of filter value. An id too long to share a URL goes alone.
 */
export function planBatches(ids: readonly string[], batchSize: number, maxFilterLength: number): string[][] {
  const batches: string[][] = [];
  let current: string[] = [];
  let length = 0;
  for (const id of ids) {
    const encoded = encodeURIComponent(id);
    if (current.length > 0 && (current.length >= batchSize || length + 1 + encoded.length > maxFilterLength)) {
      batches.push(current);
      current = [];
    }
    // A comma before every id but the first.
    length = current.length === 0 ? encoded.length : length + 1 + encoded.length;
    current.push(encoded);
  }
  if (current.length > 0) batches.push(current);
  return batches;
}

async function collect(pages: AsyncIterable<{ readonly data: readonly JsonApiResource[] }>): Promise<JsonApiResource[]> {
  const resources: JsonApiResource[] = [];
  for await (const page of pages) resources.push(...page.data);
  return resources;
}
