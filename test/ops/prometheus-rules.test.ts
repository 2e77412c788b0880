/**
 * deploy/prometheus checked by the real promtool: the config and the rules parse, the rules'
 * unit tests pass — and they can fail (a copy with one expectation changed is refused). Every
 * metric the rules name is one venue-etl exposes.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { RunMetrics, ServeMetrics } from '../../src/metrics/index.js';
import { REPO_ROOT } from '../dist.js';
import { PROMTOOL, requireBinary } from './prometheus.js';

const DIR = join(REPO_ROOT, 'deploy', 'prometheus');

function promtool(args: readonly string[], cwd = DIR): { code: number | null; output: string } {
  requireBinary(PROMTOOL, 'prometheus');
  const result = spawnSync(PROMTOOL, args, { cwd, encoding: 'utf8', timeout: 60_000 });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('deploy/prometheus', () => {
  it('promtool accepts the config and the rules', () => {
    const config = promtool(['check', 'config', 'prometheus.yml']);
    expect(config.code, config.output).toBe(0);
    const rules = promtool(['check', 'rules', 'venue-etl-rules.yml']);
    expect(rules.code, rules.output).toBe(0);
    expect(rules.output).toMatch(/SUCCESS: 7 rules found/);
  });

  it('the rules pass their unit tests, which can fail', () => {
    const passing = promtool(['test', 'rules', 'venue-etl-rules.test.yml']);
    expect(passing.code, passing.output).toBe(0);
    const copy = mkdtempSync(join(tmpdir(), 'venue-etl-rules-'));
    try {
      cpSync(DIR, copy, { recursive: true });
      const tests = readFileSync(join(copy, 'venue-etl-rules.test.yml'), 'utf8');
      writeFileSync(join(copy, 'venue-etl-rules.test.yml'), tests.replace("summary: 'venue-etl stream venue-roles is stale'", "summary: 'something else'"));
      const failing = promtool(['test', 'rules', 'venue-etl-rules.test.yml'], copy);
      expect(failing.code).not.toBe(0);
      expect(failing.output).toMatch(/FAILED/);
    } finally {
      rmSync(copy, { recursive: true, force: true });
    }
  });

  it('names only metrics venue-etl exposes', async () => {
    const registry = new Registry();
    new RunMetrics(registry);
    const serve = new ServeMetrics({ receiver: () => undefined, maxJournalBytes: 1, runState: () => undefined });
    const exposed = new Set([...(await registry.getMetricsAsJSON()), ...(await serve.registry.getMetricsAsJSON())].map((m) => m.name));
    const rules = readFileSync(join(DIR, 'venue-etl-rules.yml'), 'utf8');
    const named = new Set(rules.match(/venue_etl_[a-z_]+/g));
    expect(named.size).toBeGreaterThan(5);
    expect([...named].filter((name) => !exposed.has(name))).toEqual([]);
    expect(execFileSync(PROMTOOL, ['--version'], { encoding: 'utf8' })).toMatch(/promtool/);
  });
});
