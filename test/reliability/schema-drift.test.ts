/**
 * Schema drift against the documented policy (docs/api-assumptions.md): an unknown
 * attribute is a warning and the data is kept (exit 0); a missing attribute, a number sent as a
 * string, a null id or a wrong `jsonapi.version` fail the slices of that stream with a coded
 * error naming the field, the other streams load, the run exits 3. Nothing is coerced: no row
 * of a failed stream is stored, and every other row equals a run without drift.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addDays, assertBuilt, describeRun, queryRows, startFixture, todayUtc, type CliResult, type Fixture } from '../e2e/harness.js';
import { budget, reportFigure, reportTable, size } from './figures.js';

const START = addDays(todayUtc(), -size(4, 10));
const STREAMS = [
  'venue-devices-history',
  'venue-users-summary',
  'rating-summary',
  'rating-statistics-summaries',
  'venue-roles',
  'project-roles',
  'accounts',
  'my-devices-summary',
  'my-remarketing-history',
];
/** Endpoints added in the config (metrics inferred from what the API sends), served by the simulator's venue paths. */
const ENDPOINTS = [
  {
    stream: 'my-devices-summary',
    path: '/analytics/venue-devices-summary/{venue_id}/',
    scope: 'venue',
    kind: 'summary',
    resourceType: 'venue-devices-summary',
  },
  {
    stream: 'my-remarketing-history',
    path: '/analytics/venue-remarketing-history/{venue_id}/',
    scope: 'venue',
    kind: 'series',
    resourceType: 'venue-remarketing-history',
  },
];
/** The warehouse stream a fault scoped to a path segment hits. */
const STREAM_OF_SEGMENT: Readonly<Record<string, string>> = {
  'venue-devices-summary': 'my-devices-summary',
  'venue-remarketing-history': 'my-remarketing-history',
  'filtered-accounts': 'accounts',
};

interface DriftCase {
  readonly kind: 'drift-extra' | 'drift-missing' | 'drift-string-number' | 'drift-null-id' | 'drift-version';
  /** Path segment the fault is scoped to. */
  readonly segment: string;
  /** The field the error must name (a regex on the message); none for drift-extra. */
  readonly field?: RegExp;
}

const CASES: readonly DriftCase[] = [
  { kind: 'drift-extra', segment: 'venue-devices-history' },
  { kind: 'drift-extra', segment: 'venue-users-summary' },
  { kind: 'drift-extra', segment: 'venue-roles' },
  { kind: 'drift-extra', segment: 'venue-devices-summary' },
  { kind: 'drift-missing', segment: 'venue-devices-history', field: /data\.attributes\.authenticated is missing/ },
  { kind: 'drift-missing', segment: 'venue-users-summary', field: /data\.attributes\.returning-users is missing/ },
  { kind: 'drift-missing', segment: 'rating-summary', field: /data\.attributes\.rates_per_value is missing/ },
  { kind: 'drift-missing', segment: 'rating-statistics-summaries', field: /data\[0\]\.attributes\.requests-rated is missing/ },
  { kind: 'drift-missing', segment: 'venue-roles', field: /data\[0\]\.attributes\.permissions is missing/ },
  { kind: 'drift-missing', segment: 'filtered-accounts', field: /attributes\.created-by-id is missing/ },
  { kind: 'drift-string-number', segment: 'venue-devices-history', field: /data\.attributes\.detected\[0\]\[1\]/ },
  { kind: 'drift-string-number', segment: 'venue-users-summary', field: /data\.attributes\.logins/ },
  { kind: 'drift-string-number', segment: 'rating-summary', field: /data\.attributes\.rates_count/ },
  { kind: 'drift-string-number', segment: 'rating-statistics-summaries', field: /data\[0\]\.attributes\.requests-commented/ },
  { kind: 'drift-string-number', segment: 'venue-devices-summary', field: /data\.attributes\.detected/ },
  { kind: 'drift-string-number', segment: 'venue-remarketing-history', field: /data\.attributes\.embeds\[0\]\[1\]/ },
  { kind: 'drift-null-id', segment: 'venue-users-summary', field: /data\.id/ },
  { kind: 'drift-null-id', segment: 'venue-roles', field: /data\[0\]\.id/ },
  { kind: 'drift-version', segment: 'venue-devices-history', field: /jsonapi\.version/ },
  { kind: 'drift-version', segment: 'project-roles', field: /jsonapi\.version/ },
];

const fixtures: Fixture[] = [];
async function fixture(faults?: string): Promise<Fixture> {
  const fx = await startFixture({
    sim: { seed: 17, venues: size(2, 4), days: 30, ...(faults ? { faults } : {}) },
    config: { sync: { startDate: START, streams: STREAMS } },
  });
  fixtures.push(fx);
  // The fixture's config has no `endpoints`: add them.
  const { readFileSync, writeFileSync } = await import('node:fs');
  const config = JSON.parse(readFileSync(fx.configPath, 'utf8')) as Record<string, unknown>;
  writeFileSync(fx.configPath, JSON.stringify({ ...config, endpoints: ENDPOINTS }, null, 2));
  return fx;
}

/** Rows and an order-independent hash per stream (snapshot tables count as their stream). */
async function perStream(path: string): Promise<Map<string, string>> {
  const rows = await queryRows(
    path,
    `SELECT stream, count(*)::INTEGER AS n, sum(hash(venue_id, metric, granularity, ts, value))::VARCHAR AS h FROM series_points GROUP BY stream
     UNION ALL SELECT stream, count(*)::INTEGER, sum(hash(venue_id, metric, period_start, period_end, value))::VARCHAR FROM summary_values GROUP BY stream
     UNION ALL SELECT 'venue-roles', count(*)::INTEGER, coalesce(sum(hash(role_id, venue_id, account_id, name, inherited_from, permissions)), 0)::VARCHAR FROM current_venue_roles
     UNION ALL SELECT 'project-roles', count(*)::INTEGER, coalesce(sum(hash(role_id, project_id, account_id, name, permissions)), 0)::VARCHAR FROM current_project_roles
     UNION ALL SELECT 'accounts', count(*)::INTEGER, coalesce(sum(hash(account_id, email, full_name, confirmed_at, is_me)), 0)::VARCHAR FROM accounts`,
  );
  return new Map(rows.filter((r) => Number(r.n) > 0).map((r) => [String(r.stream), `${r.n}:${r.h}`]));
}

let clean: Map<string, string>;
beforeAll(async () => {
  assertBuilt();
  const fx = await fixture();
  const run = await fx.cli(['sync']);
  expect(run.code, describeRun(run)).toBe(0);
  // Without drift, no warning: attributes of the config endpoints are loaded, not "unknown".
  expect(run.stderr).not.toMatch(/schema drift/);
  expect(run.stdout).not.toMatch(/drift:/);
  clean = await perStream(fx.warehousePath);
  expect([...clean.keys()].sort()).toEqual([...STREAMS].sort());
});
afterAll(async () => {
  await Promise.all(fixtures.map((fx) => fx.close()));
});

interface Outcome {
  readonly case: string;
  readonly exit: number | string;
  readonly errors: number;
  readonly named: boolean;
  /** Rows of the drifted stream that differ from the run without drift (a coercion or a partial load). */
  readonly coerced: number;
  /** Other streams that differ from the run without drift. */
  readonly othersDiffer: readonly string[];
  /** drift-extra only: the unknown attribute was logged and listed in the run summary. */
  readonly warned: boolean | '-';
  readonly matches: boolean;
}

async function runCase(c: DriftCase): Promise<{ outcome: Outcome; run: CliResult }> {
  const fx = await fixture(`${c.kind}=1@${c.segment}`);
  const run = await fx.cli(['sync']);
  const stream = STREAM_OF_SEGMENT[c.segment] ?? c.segment;
  const errors = await queryRows(fx.warehousePath, `SELECT stream, error_code, message FROM sync_errors`);
  const stored = await perStream(fx.warehousePath);
  // Accounts are looked up from the roles: a failed roles stream changes them too.
  const dependent = c.segment.endsWith('-roles') ? ['accounts'] : [];
  const othersDiffer = [...clean.keys()].filter((s) => s !== stream && !dependent.includes(s) && stored.get(s) !== clean.get(s));
  const drifted = stored.get(stream);
  const expectFail = c.kind !== 'drift-extra';
  const named = expectFail
    ? errors.length > 0 && errors.every((e) => e.stream === stream && e.error_code === 'VENUE_API_SCHEMA' && c.field!.test(String(e.message)))
    : errors.length === 0;
  // A failed stream stores nothing (the warehouse started empty); a kept one equals the clean run.
  const coerced = expectFail
    ? Number(drifted?.split(':')[0] ?? 0)
    : drifted === clean.get(stream)
      ? 0
      : Math.abs(Number(drifted?.split(':')[0] ?? 0) - Number(clean.get(stream)!.split(':')[0]) || 1);
  const warned = /schema drift/.test(run.stderr) && new RegExp(`drift: +the API sent unknown attributes: ${stream}\\.unexpected-attribute`).test(run.stdout);
  const exitOk = run.code === (expectFail ? 3 : 0);
  const outcome: Outcome = {
    case: `${c.kind}@${c.segment}`,
    exit: run.code ?? String(run.signal),
    errors: errors.length,
    named,
    coerced,
    othersDiffer,
    warned: expectFail ? '-' : warned,
    matches: exitOk && named && coerced === 0 && othersDiffer.length === 0 && (expectFail || warned),
  };
  return { outcome, run };
}

it(
  'handles every kind of schema drift as documented, and coerces nothing',
  async () => {
    const results: { outcome: Outcome; run: CliResult }[] = [];
    for (let i = 0; i < CASES.length; i += 3) results.push(...(await Promise.all(CASES.slice(i, i + 3).map(runCase))));
    const outcomes = results.map((r) => r.outcome);
    reportTable(
      'schema drift',
      outcomes.map((o) => ({ ...o, othersDiffer: o.othersDiffer.join(',') || '-' })),
    );
    const matching = outcomes.filter((o) => o.matches).length;
    reportFigure('schema-drift', {
      cases: outcomes.length,
      matchingPolicyPercent: Math.round((1000 * matching) / outcomes.length) / 10,
      silentCoercions: outcomes.reduce((n, o) => n + o.coerced, 0),
      otherStreamsDiffering: outcomes.reduce((n, o) => n + o.othersDiffer.length, 0),
    });
    const failures = results.filter((r) => !r.outcome.matches).map((r) => `${JSON.stringify(r.outcome)}\n${describeRun(r.run).slice(0, 1500)}`);
    expect(failures, failures.join('\n\n')).toEqual([]);
  },
  budget(150_000, 300_000),
);
