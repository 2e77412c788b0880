import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiErrorCode } from '../../src/api/index.js';
import { buildCatalogue } from '../../src/catalogue/index.js';
import { fetchAccounts, planBatches } from '../../src/extract/index.js';
import { listDocument, rejectionOf, resource, sendJson, serverPerTest, testClient, type TestServer } from '../api/helpers.js';

/** The accounts stream's rows: by ids, in batches, and the caller's own. */
const ROWS = buildCatalogue().rowsOf('accounts');

const serve = serverPerTest();

const ME = '00000000-0000-4000-8000-000000000001';

/** An accounts API that knows `known` ids and pages its filtered lists by page[size]. */
async function accountsApi(known: ReadonlySet<string>, options: { failFilter?: number } = {}): Promise<TestServer> {
  const api = await serve((req, res) => {
    const url = new URL(req.url ?? '/', 'http://api.test');
    if (url.pathname === '/accounts/filtered-accounts/me/') {
      return sendJson(res, 200, { data: resource(ME, 'accounts', { email: 'me@example.com' }), jsonapi: { version: '1.0' } });
    }
    if (options.failFilter !== undefined && url.searchParams.get('page[number]') === '1' && --options.failFilter === 0) {
      return sendJson(res, 404, { errors: [] });
    }
    const ids = (url.searchParams.get('filter[id][in]') ?? '').split(',').filter((id) => known.has(id));
    const size = Number(url.searchParams.get('page[size]'));
    const number = Number(url.searchParams.get('page[number]'));
    const slice = ids.slice((number - 1) * size, number * size);
    const next = number * size < ids.length ? new URL(url) : undefined;
    next?.searchParams.set('page[number]', String(number + 1));
    const link = next ? `${api.url}${next.pathname}${next.search}` : null;
    sendJson(
      res,
      200,
      listDocument(
        slice.map((id) => resource(id)),
        { next: link },
      ),
    );
  });
  return api;
}

describe('fetchAccounts', () => {
  it('dedupes ids, batches them, pages each batch and reports the missing ones', async () => {
    const ids = Array.from({ length: 120 }, () => randomUUID());
    const missing = ids.filter((_, i) => i % 10 === 0);
    const known = new Set(ids.filter((id) => !missing.includes(id)));
    const api = await accountsApi(known);
    const client = testClient(api.url, { concurrency: 3 });
    // Every id twice, once upper-cased: still 120 distinct accounts.
    const result = await fetchAccounts(client, ROWS, [...ids, ...ids.map((id) => id.toUpperCase())], { batchSize: 50, pageSize: 20 });

    expect(result.me.id).toBe(ME);
    expect(result.accounts.map((a) => a.id).sort()).toEqual([...known].sort());
    expect(result.missingIds.sort()).toEqual(missing.sort());

    const firstPages = api.requests.filter((r) => r.url.includes('filter[id][in]=') && r.url.includes('page[number]=1&'));
    expect(firstPages.map((r) => new URL(r.url, api.url).searchParams.get('filter[id][in]')!.split(',').length)).toEqual([50, 50, 20]);
    // 45 + 45 + 18 known ids in pages of 20: 3 + 3 + 1 list requests, plus `me`.
    expect(api.requests).toHaveLength(8);
    // Every document received counts as a page, `me`'s single document too.
    expect(client.stats.byStream.get('accounts')).toMatchObject({ requests: 8, pages: 8 });
    await client.close();
  });

  it('sends many batches side by side under one signal without a listener-leak warning', async () => {
    // 1,000 venues name ~600 accounts: 14 batches in flight at once, each listening on the one
    // signal; Node warned of a possible leak from 11 on (printed in the middle of a sync's output).
    const ids = Array.from({ length: 80 }, () => randomUUID());
    const api = await accountsApi(new Set(ids));
    const client = testClient(api.url, { concurrency: 32 });
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on('warning', onWarning);
    try {
      // One id a batch: 81 requests, and the client's concurrency grows past 10 while they wait.
      const result = await fetchAccounts(client, ROWS, ids, { batchSize: 1, pageSize: 20, signal: new AbortController().signal });
      expect(result.accounts).toHaveLength(80);
      expect(api.requests).toHaveLength(81);
      expect(client.stats.concurrency).toBeGreaterThan(10);
      // Emitted on the next tick, if at all.
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
      await client.close();
    }
  });

  it('keeps every first-page URL within the length cap', async () => {
    const ids = Array.from({ length: 60 }, () => randomUUID());
    const api = await accountsApi(new Set(ids));
    const client = testClient(api.url);
    const result = await fetchAccounts(client, ROWS, ids, { batchSize: 200, pageSize: 100, maxUrlLength: 400 });
    expect(result.missingIds).toEqual([]);
    const urls = api.requests.filter((r) => r.url.includes('filter[id]')).map((r) => `${api.url}${r.url}`);
    expect(urls.length).toBeGreaterThan(5);
    for (const url of urls) expect(url.length).toBeLessThanOrEqual(400);
    expect(urls.reduce((n, url) => n + new URL(url).searchParams.get('filter[id][in]')!.split(',').length, 0)).toBe(60);
    await client.close();
  });

  it('asks only for me when there are no ids', async () => {
    const api = await accountsApi(new Set());
    const client = testClient(api.url);
    const result = await fetchAccounts(client, ROWS, [], { batchSize: 50, pageSize: 100 });
    expect(result).toMatchObject({ accounts: [], missingIds: [], me: { id: ME } });
    expect(api.requests).toHaveLength(1);
    await client.close();
  });

  it('fails with the first error and leaves no request running', async () => {
    const ids = Array.from({ length: 10 }, () => randomUUID());
    const api = await accountsApi(new Set(ids), { failFilter: 2 });
    const client = testClient(api.url, { concurrency: 1 });
    const error = await rejectionOf(fetchAccounts(client, ROWS, ids, { batchSize: 2, pageSize: 100 }));
    expect(error.code).toBe(ApiErrorCode.notFound);
    // The failure aborted the batches still queued behind it.
    expect(api.requests.length).toBeLessThan(6);
    await client.close();
  });
});

describe('planBatches', () => {
  it('splits by count and by length, and sends an oversized id alone', () => {
    expect(planBatches(['a', 'b', 'c', 'd', 'e'], 2, 100)).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(planBatches(['aaaa', 'bbbb', 'cccc'], 10, 9)).toEqual([['aaaa', 'bbbb'], ['cccc']]);
    expect(planBatches(['x'.repeat(50), 'y'], 10, 10)).toEqual([['x'.repeat(50)], ['y']]);
    expect(planBatches(['a,b'], 10, 100)).toEqual([['a,b']]);
    // Sized as sent: 'a,b' is 'a%2Cb', five characters.
    expect(planBatches(['a,b', 'c'], 10, 6)).toEqual([['a,b'], ['c']]);
  });
});
