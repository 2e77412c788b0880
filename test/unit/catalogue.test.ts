import { describe, expect, it } from 'vitest';
import { buildCatalogue, defaultStreams, ENDPOINTS, type EndpointRow } from '../../src/catalogue/index.js';
import { captureLog, sendJson, startServer, testClient } from '../api/helpers.js';
import { checkAccess } from '../../src/runner/open-run.js';

const CONFIG_ROW = {
  stream: 'project-devices-history',
  path: '/p/{project_id}/',
  scope: 'project',
  kind: 'series',
  resourceType: 'project-devices-history',
} as const;

describe('the catalogue', () => {
  it("keeps every row of a stream: the accounts by id in batches and the caller's own, which is the access check", () => {
    const catalogue = buildCatalogue();
    const accounts = catalogue.rowsOf('accounts');
    expect(accounts.map((row) => [row.path, row.resolve?.parents ?? [], row.caller ?? false])).toEqual([
      ['/accounts/filtered-accounts/', ['venue-roles', 'project-roles'], false],
      ['/accounts/filtered-accounts/me/', [], true],
    ]);
    expect(catalogue.endpointFor('accounts')).toBe(accounts[0]);
    expect(catalogue.accessCheck).toBe(accounts[1]);
    expect(catalogue.streams.filter((stream) => stream === 'accounts')).toHaveLength(1);
  });

  it('computes the default streams of every command from one rule', () => {
    const catalogue = buildCatalogue([CONFIG_ROW]);
    const snapshots = ['venue-roles', 'project-roles', 'accounts'];
    expect(defaultStreams(catalogue, undefined, 'all')).toEqual(catalogue.streams);
    expect(defaultStreams(catalogue, undefined, 'snapshots')).toEqual(snapshots);
    expect(defaultStreams(catalogue, undefined, 'windowed')).toEqual(catalogue.streams.filter((s) => !snapshots.includes(s)));
    expect(defaultStreams(catalogue, undefined, 'windowed')).toContain('project-devices-history');
    const configured = ['accounts', 'rating-history', 'project-devices-history', 'venue-roles'];
    expect(defaultStreams(catalogue, configured, 'windowed')).toEqual(['rating-history', 'project-devices-history']);
    expect(defaultStreams(catalogue, configured, 'snapshots')).toEqual(['accounts', 'venue-roles']);
    expect(defaultStreams(catalogue, configured, 'all')).toEqual(configured);
  });

  it('refuses a row it could not follow', () => {
    const { dates: _dates, ...first } = ENDPOINTS[0]!;
    const historyWithoutDates: EndpointRow = { ...first, stream: 'undated-history' };
    expect(() => buildCatalogue([], [...ENDPOINTS, historyWithoutDates])).toThrow(/undated-history .*a series row needs date parameters/);
    expect(() =>
      buildCatalogue(
        [],
        ENDPOINTS.filter((row) => !row.caller),
      ),
    ).toThrow(/exactly one caller row/);
  });

  it('makes the access check with the caller row, and reads the API clock from its answer', async () => {
    const api = await startServer((_req, res) => {
      res.setHeader('date', 'Tue, 03 Mar 2026 10:00:00 GMT');
      sendJson(res, 200, { data: { type: 'accounts', id: '00000000-0000-4000-8000-000000000001', attributes: {} }, jsonapi: { version: '1.0' } });
    });
    const client = testClient(api.url, { logger: captureLog('silent').logger });
    try {
      const catalogue = buildCatalogue(
        [],
        ENDPOINTS.map((row) => (row.caller ? { ...row, path: '/accounts/whoami/' } : row)),
      );
      const clock = await checkAccess(client, catalogue, () => new Date('2026-03-03T10:00:30Z'));
      expect(api.requests.map((r) => r.url)).toEqual(['/accounts/whoami/']);
      expect(clock.today).toBe('2026-03-03');
    } finally {
      await client.close();
      await api.close();
    }
  });
});
