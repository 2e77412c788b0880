import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDir, V1 } from '../readside/fixture.js';

/** A loopback port with nothing listening: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

describe('errors that point at the fix', () => {
  const { dir, cleanup } = tempDir();
  afterAll(cleanup);
  const config = (name: string, document: unknown): string => {
    const path = join(dir, name);
    writeFileSync(path, typeof document === 'string' ? document : JSON.stringify(document, null, 2));
    return path;
  };

  it('says nothing is listening at api.baseUrl, from the access check, without retrying', async () => {
    const port = await closedPort();
    const path = config('refused.json', { api: { baseUrl: `http://127.0.0.1:${port}`, token: 'tok-refused-1', maxRetries: 20 }, scope: { venues: [V1] } });
    const run = await runCli(['sync', '--config', path]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`nothing is listening at http://127.0.0.1:${port} (ECONNREFUSED: connection refused)`);
    expect(run.stderr).toContain('check api.baseUrl');
    // Retried 20 times it would end as VENUE_API_RETRIES_EXHAUSTED "failed after 21 attempts".
    expect(run.stderr).toContain('VENUE_API_NETWORK');
    expect(run.stderr).not.toContain('attempts');
    expect(run.stderr).not.toContain('tok-refused-1');
  });

  it('says that 2026-02-30 does not exist, in flags and in the config', async () => {
    const path = config('dates.json', { api: { baseUrl: 'http://127.0.0.1:9', token: 't' }, scope: { venues: [V1] }, sync: { startDate: '2026-02-30' } });
    const flag = await runCli(['backfill', '--from', '2026-02-30', '--to', '2026-03-02', '--config', config('ok.json', { warehouse: { path: 'w.duckdb' } })]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--from: 2026-02-30 does not exist: February 2026 has 28 days');
    const file = await runCli(['config', '--config', path]);
    expect(file.code).toBe(2);
    expect(file.stderr).toContain('sync.startDate: 2026-02-30 does not exist: February 2026 has 28 days');
    const form = await runCli(['backfill', '--from', '2026-2-3', '--to', '2026-03-02', '--config', path]);
    expect(form.stderr).toContain('--from must be a date YYYY-MM-DD (UTC), got "2026-2-3"');
  });

  it('gives line and column of a JSON syntax error in the config', async () => {
    const path = config('trailing-comma.json', '{\n  "warehouse": { "path": "w.duckdb" },\n}\n');
    const run = await runCli(['status', '--config', path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`${path} has 1 problem`);
    expect(run.stderr).toContain('is not valid JSON at line 3, column 1');
    expect(run.stderr).not.toContain('position');
  });

  it('suggests the closest command, stream and config key', async () => {
    const command = await runCli(['snyc']);
    expect(command.code).toBe(2);
    expect(command.stderr).toContain('unknown command "snyc"; did you mean "sync"?');

    const path = config('streams.json', { api: { baseUrl: 'http://127.0.0.1:9', token: 't' }, scope: { venues: [V1] } });
    const stream = await runCli(['sync', '--streams', 'venue-device-history', '--config', path]);
    expect(stream.code).toBe(2);
    expect(stream.stderr).toContain('unknown stream: venue-device-history (did you mean "venue-devices-history"?)');

    const keys = await runCli(['config', '--config', config('keys.json', { warehous: {}, sync: { lookbakDays: 3, streams: ['rating-histroy'] } })]);
    expect(keys.code).toBe(2);
    expect(keys.stderr).toContain('(root): unknown key "warehous"; did you mean "warehouse"?');
    expect(keys.stderr).toContain('sync: unknown key "lookbakDays"; did you mean "lookbackDays"?');
    expect(keys.stderr).toContain('sync.streams[0]: unknown stream "rating-histroy"; did you mean "rating-history"?');
  });
});
