import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startReceiver } from '../../src/receiver/index.js';
import { assertBuilt, childEnv, describeRun, runCli } from '../e2e/harness.js';
import { eventBody, post, readTables, tempDir, receiverOptions } from './helpers.js';

let temp: ReturnType<typeof tempDir>;
beforeAll(() => assertBuilt());
beforeEach(() => {
  temp = tempDir();
});
afterEach(() => temp.cleanup());

/** A full config whose credentials come from variables this test never sets. */
function writeConfig(journalDir: string, warehousePath: string): string {
  const path = join(temp.dir, 'venue-etl.config.json');
  writeFileSync(
    path,
    JSON.stringify({
      api: { baseUrl: 'http://127.0.0.1:9', token: '${VENUE_API_TOKEN}' },
      scope: { venues: [] },
      warehouse: { path: warehousePath },
      receiver: { enabled: true, authorization: '${VENUE_RECEIVER_AUTHORIZATION}', journalDir },
    }),
  );
  return path;
}

describe('venue-etl merge-events', () => {
  it('merges the journal without serve, needing neither the API token nor the receiver credential', async () => {
    const journalDir = join(temp.dir, 'journal');
    const warehousePath = join(temp.dir, 'warehouse.duckdb');
    const receiver = await startReceiver(
      receiverOptions({
        journalDir,
        warehousePath,
      }),
    );
    for (let visits = 1; visits <= 5; visits++) expect((await post(receiver.url, eventBody({ visits }))).status).toBe(200);
    await receiver.close();
    const config = writeConfig(journalDir, warehousePath);

    const merged = await runCli(['merge-events', '--config', config], { env: childEnv(), cwd: temp.dir });
    expect(merged.code, describeRun(merged)).toBe(0);
    expect(merged.stdout).toMatch(/merged 5 journal records: 5 new events, 0 already stored/);
    expect((await readTables(warehousePath)).events).toHaveLength(5);
    expect((await readTables(warehousePath)).history[0].visits_count).toBe(5);

    const again = await runCli(['merge-events', '--config', config], { env: childEnv(), cwd: temp.dir });
    expect(again.code, describeRun(again)).toBe(0);
    expect(again.stdout).toMatch(/merged 0 journal records/);
    expect((await readTables(warehousePath)).events).toHaveLength(5);
  });

  it('says there is nothing to merge when the journal is empty, and touches nothing', async () => {
    const warehousePath = join(temp.dir, 'warehouse.duckdb');
    const config = writeConfig(join(temp.dir, 'no-journal'), warehousePath);
    const run = await runCli(['merge-events', '--config', config], { env: childEnv(), cwd: temp.dir });
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).toMatch(/nothing to merge/);
    expect(existsSync(warehousePath)).toBe(false);
  });
});
