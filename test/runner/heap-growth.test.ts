/**
 * V8's young generation stops at YOUNG_GENERATION_BYTES: allocation that survives scavenges (as
 * a run's does, and as loading the CLI's modules does) otherwise doubles it up to 32 MB, and it
 * never shrinks. Measured in child processes, since V8's flags are process-wide.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { YOUNG_GENERATION_BYTES } from '../../src/runner/heap-growth.js';

const MODULE = fileURLToPath(new URL('../../dist/src/runner/heap-growth.js', import.meta.url));
const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'venue-etl-heap-growth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Allocates ~300 MB in steps, keeping the last ~20 steps alive, and prints the young generation's peak. */
function youngGenerationPeak(limit: boolean): number {
  const script = `
    const { limitYoungGeneration, youngGenerationBytes } = await import(${JSON.stringify(MODULE)});
    if (${limit}) limitYoungGeneration();
    const kept = [];
    let peak = 0;
    for (let step = 0; step < 300; step++) {
      kept.push(Array.from({ length: 10000 }, (_, i) => ({ step, i, text: 'x' + i })));
      if (kept.length > 20) kept.shift();
      peak = Math.max(peak, youngGenerationBytes());
      // Lets the garbage-collection observer run between steps, as a run's event loop does.
      await new Promise((resolve) => setImmediate(resolve));
    }
    process.stdout.write(String(peak));
  `;
  return Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));
}

it('keeps the young generation at its cap once limitYoungGeneration() has run', () => {
  const unlimited = youngGenerationPeak(false);
  const limited = youngGenerationPeak(true);
  // Without the cap the same allocation grows it past the cap (the workload proves something).
  expect(unlimited).toBeGreaterThan(2 * YOUNG_GENERATION_BYTES);
  expect(limited).toBeLessThanOrEqual(YOUNG_GENERATION_BYTES);
});

it('the CLI caps it for sync and backfill before loading its modules (loading them grows it past the cap otherwise)', () => {
  // Preloaded into the CLI: reports the young generation's size when the process exits.
  const probe = join(dir, 'young-generation-probe.mjs');
  writeFileSync(
    probe,
    `import { getHeapSpaceStatistics } from 'node:v8';
     process.on('exit', () => process.stderr.write('young=' + getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size + '\\n'));`,
  );
  const loadOnly = `await import(${JSON.stringify(fileURLToPath(new URL('../../dist/src/cli/main.js', import.meta.url)))});`;
  const youngAfter = (args: readonly string[]): number => {
    const child = spawnSync(process.execPath, ['--import', probe, ...args], { encoding: 'utf8' });
    expect(child.status).toBe(0);
    return Number(/young=(\d+)/.exec(child.stderr)?.[1]);
  };
  expect(youngAfter(['--input-type=module', '-e', loadOnly])).toBeGreaterThan(YOUNG_GENERATION_BYTES);
  expect(youngAfter([CLI, 'backfill', '--help'])).toBeLessThanOrEqual(YOUNG_GENERATION_BYTES);
  expect(youngAfter([CLI, 'sync', '--help'])).toBeLessThanOrEqual(YOUNG_GENERATION_BYTES);
  // Commands that build their result in JavaScript keep V8's default: the cap costs them time.
  expect(youngAfter([CLI, 'report', '--help'])).toBeGreaterThan(YOUNG_GENERATION_BYTES);
});
