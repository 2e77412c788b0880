import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openWarehouse } from '../../src/warehouse/index.js';
import { builtModule } from '../dist.js';
import { repoRoot, seriesSlice, tempDir, VENUE_A } from './helpers.js';

const DEVICES = 'venue-devices-history';
let temp: ReturnType<typeof tempDir>;

beforeAll(() => {
  temp = tempDir();
});
afterAll(() => {
  temp.cleanup();
});

describe('a process killed inside commitSlices', () => {
  it('leaves the warehouse as it was before the transaction', async () => {
    const path = join(temp.dir, 'w.duckdb');
    const before = seriesSlice(
      VENUE_A,
      DEVICES,
      '2026-01-01',
      '2026-01-02',
      [
        ['detected', 'day', '2026-01-01T00:00:00Z', 1],
        ['detected', 'day', '2026-01-02T00:00:00Z', 2],
      ],
      { cursor: { mode: 'advance', date: '2026-01-02' } },
    );
    const warehouse = await openWarehouse(path);
    await warehouse.commitSlices('run-1', [before]);
    await warehouse.close();

    // The child replaces the window (and moves the cursor) and is killed just before COMMIT.
    const after = seriesSlice(
      VENUE_A,
      DEVICES,
      '2026-01-01',
      '2026-01-03',
      [
        ['detected', 'day', '2026-01-01T00:00:00Z', 10],
        ['detected', 'day', '2026-01-03T00:00:00Z', 30],
      ],
      { cursor: { mode: 'advance', date: '2026-01-03' }, backfill: { backfillId: 'bf-x', sliceKey: 'k' } },
    );
    const script = `
      const { openWarehouse } = await import(${JSON.stringify(builtModule('warehouse/index.js'))});
      const warehouse = await openWarehouse(${JSON.stringify(path)});
      await warehouse.commitSlices('run-2', [${JSON.stringify(after)}]);
      process.stdout.write('committed\\n');`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      cwd: repoRoot,
      env: { ...process.env, VENUE_ETL_TEST_PAUSE_BEFORE_COMMIT_MS: '60000' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (data: Buffer) => (stdout += data.toString()));
    await new Promise<void>((resolve, reject) => {
      let stderr = '';
      child.stderr.on('data', (data: Buffer) => {
        stderr += data.toString();
        if (stderr.includes('paused before commit')) resolve();
      });
      child.on('exit', (code) => reject(new Error(`child exited early (${code}): ${stderr}`)));
    });
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(stdout).not.toContain('committed');

    const reopened = await openWarehouse(path);
    try {
      const rows = await reopened.query(`SELECT strftime(ts, '%d') AS d, value, run_id FROM series_points ORDER BY ts`);
      expect(rows).toEqual([
        { d: '01', value: 1, run_id: 'run-1' },
        { d: '02', value: 2, run_id: 'run-1' },
      ]);
      expect((await reopened.readCursors())[0]).toMatchObject({ cursorDate: '2026-01-02', runId: 'run-1' });
      expect(await reopened.query('SELECT * FROM backfill_slices')).toEqual([]);
      // And the file is fully usable: the same commit now goes through.
      expect((await reopened.commitSlices('run-3', [after])).rowsWritten).toBe(2);
    } finally {
      await reopened.close();
    }
  });
});
