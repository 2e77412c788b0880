import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runOnFile, seededWarehouse, tempDir, utcDay, V1, V2, writeConfig } from '../readside/fixture.js';

describe('venue-etl reset', () => {
  const { dir, cleanup } = tempDir();
  const warehouse = join(dir, 'warehouse.duckdb');
  let config: string;
  const cursors = async (stream: string) =>
    Object.fromEntries(
      (
        await runOnFile(warehouse, `SELECT scope_id, strftime(cursor_date, '%Y-%m-%d') AS d FROM sync_cursors WHERE stream = '${stream}' ORDER BY scope_id`)
      ).map((r) => [r.scope_id, r.d]),
    );
  const seriesCount = async (where: string) => (await runOnFile(warehouse, `SELECT count(*)::INTEGER AS n FROM series_points WHERE ${where}`))[0]!.n;

  beforeAll(async () => {
    await seededWarehouse(warehouse);
    config = writeConfig(dir);
  });
  afterAll(cleanup);

  it('prints what it would do and changes nothing without --yes (exit 2)', async () => {
    const before = await cursors('venue-devices-history');
    const run = await runCli(['reset', '--streams', 'venue-devices-history', '--rows', '--config', config]);
    expect(run.code).toBe(2);
    expect(run.stdout).toContain('forget the cursors and delete the rows of every venue and project, the whole history');
    expect(run.stdout).toMatch(/venue-devices-history\s+2\s+\d+\s+0/);
    expect(run.stderr).toContain('run the same command with --yes');
    expect(await cursors('venue-devices-history')).toEqual(before);
  });

  it('--from moves the chosen cursors back and --rows deletes those days only, for the chosen venue', async () => {
    const from = utcDay(-10);
    const v2Before = await seriesCount(`venue_id = '${V2}' AND stream = 'venue-devices-history'`);
    const otherStream = await seriesCount(`venue_id = '${V1}' AND stream = 'venue-users-history'`);
    const early = await seriesCount(`venue_id = '${V1}' AND stream = 'venue-devices-history' AND ts < DATE '${from}'`);
    expect(early).toBeGreaterThan(0);
    const run = await runCli(['reset', '--streams', 'venue-devices-history', '--venues', V1, '--from', from, '--rows', '--yes', '--config', config]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain(`reset: 1 cursor moved back to ${utcDay(-11)}, 40 series rows and 0 summary rows deleted`);
    expect(await cursors('venue-devices-history')).toEqual({ [V1]: utcDay(-11), [V2]: utcDay(-1) });
    expect(await seriesCount(`venue_id = '${V1}' AND stream = 'venue-devices-history' AND ts >= DATE '${from}'`)).toBe(0);
    expect(await seriesCount(`venue_id = '${V1}' AND stream = 'venue-devices-history' AND ts < DATE '${from}'`)).toBe(early);
    expect(await seriesCount(`venue_id = '${V2}' AND stream = 'venue-devices-history'`)).toBe(v2Before);
    expect(await seriesCount(`venue_id = '${V1}' AND stream = 'venue-users-history'`)).toBe(otherStream);
  });

  it('without --from forgets the cursors; rows stay unless --rows', async () => {
    const rows = await seriesCount(`stream = 'rating-history'`);
    const run = await runCli(['reset', '--streams', 'rating-history', '--yes', '--config', config]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('reset: 2 cursors forgotten');
    expect(await cursors('rating-history')).toEqual({});
    expect(await seriesCount(`stream = 'rating-history'`)).toBe(rows);
  });

  it('refuses unknown streams with a suggestion, and --to without --rows', async () => {
    const unknown = await runCli(['reset', '--streams', 'rating-histroy', '--config', config]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown stream: rating-histroy (did you mean "rating-history"?)');
    const to = await runCli(['reset', '--from', utcDay(-5), '--to', utcDay(-2), '--config', config]);
    expect(to.code).toBe(2);
    expect(to.stderr).toContain('--to bounds the rows deleted: it needs --rows');
  });
});
