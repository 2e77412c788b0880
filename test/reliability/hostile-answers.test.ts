/**
 * Hostile API answers: well-formed 200s that lie (docs/api-assumptions.md). A
 * warehouse is loaded cleanly, then a nightly sync re-reads the lookback days while the
 * simulator answers one stream with a hostile shape. Each case must fail exactly that stream's
 * slices (exit 3, one `sync_errors` row per slice with the case's code, and an error log line
 * naming the stream, scope and window), leave every stored row as it was (not even rewritten),
 * run every other slice, and cost no more requests than a clean re-run (nothing retried).
 */
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  addDays,
  assertBuilt,
  checksums,
  childEnv,
  describeRun,
  queryRows,
  startFixture,
  summaryNumber,
  TOKEN_ENV,
  type CliResult,
  type Fixture,
} from '../e2e/harness.js';
import { SERIES, SUMMARY_KIND } from '../e2e/truth.js';
import { budget, reportFigure, reportTable, size } from './figures.js';

/** The API's today (fixed: nothing here depends on the real date); runs use the same machine date. */
const T = '2026-11-20';
const SEED = 43;
/** Four venues in two projects; the first three venues and the first project are in scope. */
const WORLD = { seed: SEED, venues: 4, days: 40, today: T, clock: () => new Date(`${T}T12:00:00Z`) };
const STREAMS = [...SERIES, ...SUMMARY_KIND, 'venue-roles', 'project-roles'];
const ENV = { ...childEnv({ [TOKEN_ENV]: 'sim-token' }), VENUE_ETL_TEST_NOW: `${T}T12:00:00Z` };

/** What must stay exactly as it was: fact rows with who wrote them, roles and cursors. */
const KEPT = {
  series_points: 'venue_id, stream, metric, granularity, ts, value, run_id, loaded_at',
  summary_values: 'venue_id, stream, metric, period_start, period_end, value, run_id, loaded_at',
  venue_roles: 'role_id, venue_id, account_id, name, inherited_from, permissions, valid_from, valid_to, run_id',
  project_roles: 'role_id, project_id, account_id, name, permissions, valid_from, valid_to, run_id',
  sync_cursors: 'stream, scope_id, cursor_date',
} as const;

interface HostileCase {
  readonly kind: string;
  readonly segment: string;
  readonly code: string;
  /** Text the error message must hold (the field, metric or timestamp). */
  readonly names: RegExp;
}

const CASES: readonly HostileCase[] = [
  { kind: 'empty-series', segment: 'venue-devices-history', code: 'VENUE_API_INCOMPLETE_ANSWER', names: /detected.*(no point|missing)/ },
  { kind: 'short-series', segment: 'venue-users-history', code: 'VENUE_API_INCOMPLETE_ANSWER', names: /logins.*missing.*\d{4}-\d{2}-\d{2}/ },
  { kind: 'empty-list', segment: 'rating-statistics-summaries', code: 'VENUE_API_INCOMPLETE_ANSWER', names: /no resource/ },
  { kind: 'wrong-scope', segment: 'rating-statistics-summaries', code: 'VENUE_API_WRONG_SCOPE', names: /relationships\.venue/ },
  { kind: 'wrong-scope', segment: 'venue-users-summary', code: 'VENUE_API_WRONG_SCOPE', names: /relationships\.venue/ },
  { kind: 'wrong-scope', segment: 'venue-roles', code: 'VENUE_API_WRONG_SCOPE', names: /relationships\.venue/ },
  { kind: 'wrong-scope', segment: 'project-roles', code: 'VENUE_API_WRONG_SCOPE', names: /relationships\.project/ },
  { kind: 'repeat-point', segment: 'venue-remarketing-history', code: 'VENUE_API_CONTRADICTORY_VALUES', names: /embeds.*\d{4}-\d{2}-\d{2}T/ },
  { kind: 'repeat-point', segment: 'rating-summary', code: 'VENUE_API_CONTRADICTORY_VALUES', names: /rates_per_value/ },
  { kind: 'negative-count', segment: 'venue-devices-history', code: 'VENUE_API_BAD_VALUE', names: /detected.*-\d+/ },
  { kind: 'fractional-count', segment: 'venue-users-history', code: 'VENUE_API_BAD_VALUE', names: /logins.*\.5/ },
  { kind: 'huge-count', segment: 'venue-remarketing-history', code: 'VENUE_API_BAD_VALUE', names: /embeds.*1e\+308/ },
  { kind: 'unsafe-count', segment: 'rating-history', code: 'VENUE_API_BAD_VALUE', names: /rates-count.*9007199254740992/ },
  { kind: 'rate-high', segment: 'rating-history', code: 'VENUE_API_BAD_VALUE', names: /rates-average.* 7\b/ },
  { kind: 'rate-negative', segment: 'rating-summary', code: 'VENUE_API_BAD_VALUE', names: /average_rate.*-1/ },
  { kind: 'negative-count', segment: 'venue-users-summary', code: 'VENUE_API_BAD_VALUE', names: /logins.*-\d+/ },
  { kind: 'huge-count', segment: 'rating-statistics-summaries', code: 'VENUE_API_BAD_VALUE', names: /requests-commented.*1e\+308/ },
];

let baseline: string;
let cleanRerunRequests: number;
const fixtures: Fixture[] = [];

async function fixture(faults?: string): Promise<Fixture> {
  const fx = await startFixture({ sim: { ...WORLD, ...(faults ? { faults } : {}) } });
  fixtures.push(fx);
  const venues = fx.venues.slice(0, 3);
  fx.writeConfig({ scope: { venues, projects: fx.projects.slice(0, 1) }, sync: { startDate: addDays(T, -size(8, 20)), streams: STREAMS } });
  return fx;
}

beforeAll(async () => {
  assertBuilt();
  const baselineDir = await fixture();
  const first = await baselineDir.cli(['sync'], { env: ENV });
  expect(first.code, describeRun(first)).toBe(0);
  baseline = join(baselineDir.dir, 'baseline.duckdb');
  copyFileSync(baselineDir.warehousePath, baseline);
  expect(existsSync(`${baselineDir.warehousePath}.wal`)).toBe(false);
  baselineDir.sim.clearRequests();
  const rerun = await baselineDir.cli(['sync'], { env: ENV });
  expect(rerun.code, describeRun(rerun)).toBe(0);
  cleanRerunRequests = baselineDir.sim.requests.length;
}, 60_000);
afterAll(async () => {
  await Promise.all(fixtures.map((fx) => fx.close()));
});

interface Outcome {
  readonly case: string;
  readonly exit: number | string;
  readonly failed: number;
  readonly notRun: number;
  readonly errorRows: number;
  readonly codes: string;
  readonly tablesChanged: string;
  readonly outsideScopeRows: number;
  readonly extraRequests: number;
  readonly logged: boolean;
  readonly matches: boolean;
}

/** The failed slices a case must produce: one per venue in scope (one per project for project roles). */
const expectedFailures = (c: HostileCase): number => (c.segment === 'project-roles' ? 1 : 3);

async function runCase(c: HostileCase): Promise<{ outcome: Outcome; run: CliResult }> {
  const fx = await fixture(`${c.kind}=1@${c.segment}`);
  mkdirSync(dirname(fx.warehousePath), { recursive: true });
  copyFileSync(baseline, fx.warehousePath);
  const before = await checksums(fx.warehousePath, KEPT);
  const run = await fx.cli(['sync'], { env: ENV });
  const after = await checksums(fx.warehousePath, KEPT);
  const changed = Object.keys(KEPT).filter((table) => JSON.stringify(before[table]) !== JSON.stringify(after[table]));
  const errors = await queryRows(fx.warehousePath, 'SELECT stream, scope_id, error_code, message FROM sync_errors');
  const inScope = fx.venues
    .slice(0, 3)
    .map((v) => `'${v}'`)
    .join(', ');
  const [outside] = await queryRows(
    fx.warehousePath,
    `SELECT (SELECT count(*) FROM series_points WHERE venue_id::VARCHAR NOT IN (${inScope}))
          + (SELECT count(*) FROM summary_values WHERE venue_id::VARCHAR NOT IN (${inScope}))
          + (SELECT count(*) FROM venue_roles WHERE venue_id::VARCHAR NOT IN (${inScope}))
          + (SELECT count(*) FROM project_roles WHERE project_id::VARCHAR <> '${fx.projects[0]}') AS n`,
  );
  const errorLines = run.stderr.split('\n').filter((line) => line.includes(c.code));
  const logged =
    errorLines.length >= expectedFailures(c) &&
    errorLines.every((line) => /"stream":/.test(line) && /"scopeId":/.test(line) && /"windowFrom":/.test(line) && /"windowTo":/.test(line));
  const failed = /(\d+) failed/.test(run.stdout) ? summaryNumber(run.stdout, /([\d,]+) failed/) : -1;
  const notRun = /not run/.test(run.stdout) ? summaryNumber(run.stdout, /([\d,]+) not run/) : -1;
  const codes = [...new Set(errors.map((e) => String(e.error_code)))].join(',');
  const outcome: Omit<Outcome, 'matches'> = {
    case: `${c.kind}@${c.segment}`,
    exit: run.code ?? String(run.signal),
    failed,
    notRun,
    errorRows: errors.length,
    codes: codes || '-',
    tablesChanged: changed.join(',') || '-',
    outsideScopeRows: Number(outside!.n),
    extraRequests: fx.sim.requests.length - cleanRerunRequests,
    logged,
  };
  const matches =
    outcome.exit === 3 &&
    failed === expectedFailures(c) &&
    notRun === 0 &&
    errors.length === expectedFailures(c) &&
    codes === c.code &&
    errors.every((e) => e.stream === c.segment && c.names.test(String(e.message))) &&
    changed.length === 0 &&
    outcome.outsideScopeRows === 0 &&
    outcome.extraRequests === 0 &&
    logged;
  return { outcome: { ...outcome, matches }, run };
}

it(
  'fails only the slices a hostile answer touches, names them, and keeps every stored row',
  async () => {
    const results: { outcome: Outcome; run: CliResult }[] = [];
    for (let i = 0; i < CASES.length; i += 3) results.push(...(await Promise.all(CASES.slice(i, i + 3).map(runCase))));
    const outcomes = results.map((r) => r.outcome);
    reportTable('hostile answers', outcomes);
    reportFigure('hostile-answers', {
      cases: outcomes.length,
      matchingPolicy: outcomes.filter((o) => o.matches).length,
      exits: [...new Set(outcomes.map((o) => o.exit))],
      storedRowsChanged: outcomes.filter((o) => o.tablesChanged !== '-').length,
      outsideScopeRows: outcomes.reduce((n, o) => n + o.outsideScopeRows, 0),
      slicesNotRun: outcomes.reduce((n, o) => n + Math.max(0, o.notRun), 0),
      extraRequests: outcomes.reduce((n, o) => n + o.extraRequests, 0),
      cleanRerunRequests,
    });
    const failures = results.filter((r) => !r.outcome.matches).map((r) => `${JSON.stringify(r.outcome)}\n${describeRun(r.run).slice(0, 1500)}`);
    expect(failures, failures.join('\n\n')).toEqual([]);
  },
  budget(180_000, 300_000),
);
