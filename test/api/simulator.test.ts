import { afterEach, expect, it } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/index.js';
import { startSimulator, type Simulator } from '../../src/simulator/index.js';
import { buildCatalogue } from '../../src/catalogue/index.js';
import { fetchAccounts } from '../../src/extract/index.js';
import { captureLog } from './helpers.js';

let simulator: Simulator | undefined;
let client: ApiClient | undefined;
afterEach(async () => {
  await client?.close();
  await simulator?.close();
});

it("pages through the simulator's venue roles and looks up their accounts", async () => {
  simulator = await startSimulator({ seed: 7, venues: 3, days: 7, today: '2026-03-01' });
  client = createApiClient({
    baseUrl: simulator.url,
    token: simulator.token,
    concurrency: 4,
    timeoutMs: 5_000,
    maxRetries: 2,
    maxRetryAfterMs: 5_000,
    logger: captureLog('silent').logger,
  });
  const venueId = simulator.world.venues[0]!.id;
  const expected = simulator.truth.venueRoles(venueId).map((role) => role.id);
  expect(expected.length).toBeGreaterThan(1); // more than one page of 1

  const ids: string[] = [];
  const accountIds: string[] = [];
  for await (const page of client.paginate(`/core/venue-roles/?filter[venue]=${venueId}`, { pageSize: 1, stream: 'venue-roles' })) {
    for (const role of page.data) {
      ids.push(role.id);
      const account = role.relationships?.account?.data;
      if (account && 'id' in account) accountIds.push(account.id);
    }
  }
  expect(ids).toEqual(expected);
  expect(client.stats.pages).toBe(expected.length);

  const accounts = await fetchAccounts(client, buildCatalogue().rowsOf('accounts'), [...accountIds, '00000000-0000-4000-8000-00000000dead'], {
    batchSize: 3,
    pageSize: 2,
  });
  expect(accounts.missingIds).toEqual(['00000000-0000-4000-8000-00000000dead']);
  expect(new Set(accounts.accounts.map((a) => a.id))).toEqual(new Set(accountIds));
  expect(accounts.me.type).toBe('accounts');
});
