/**
 * B4: the second nightly run with nothing new upstream. The first `venue-etl sync` loads the
 * history; the second one, minutes later, may only re-read what the lookback covers and the
 * snapshots (roles, accounts), and must change no row. The minimum is computed here from the
 * configuration and the world, not taken from the planner:
 *
 *   access check                           1
 *   history streams (4)                    venues x 4 x ceil(lookback / windowDays)
 *   summary streams (6, day grain)         venues x 6 x lookback
 *   venue roles, project roles             one request per page of each venue's / project's roles
 *   accounts                               one request per id batch (and page), plus `me`
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCatalogue, defaultStreams } from '../src/catalogue/index.js';
import { addDays, todayUtc } from '../src/calendar/index.js';
import { startSimulator } from '../src/simulator/index.js';
import { openWarehouse } from '../src/warehouse/index.js';
import { runCli, writeConfig } from './cli-process.js';
import { fmt, type Figure } from './figure.js';

const HISTORY_STREAMS = 4;
const SUMMARY_STREAMS = defaultStreams(buildCatalogue(), undefined, 'windowed').length - HISTORY_STREAMS;

export interface NightlyRerunOptions {
  readonly venues: number;
  readonly historyDays: number;
  readonly lookbackDays: number;
}

export async function nightlyRerunFigure(options: NightlyRerunOptions): Promise<Figure> {
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-bench-b4-'));
  const sim = await startSimulator({ venues: options.venues, days: options.historyDays + 5 });
  const pageSize = 100;
  const accountsBatchSize = 50;
  const windowDays = 31;
  try {
    const config = join(dir, 'venue-etl.config.json');
    const warehousePath = join(dir, 'warehouse.duckdb');
    const venues = sim.world.venues.map((v) => v.id);
    const projects = sim.world.projects.map((p) => p.id);
    writeConfig(config, {
      api: { baseUrl: sim.url, token: sim.token, concurrency: 16, pageSize, accountsBatchSize },
      scope: { venues, projects },
      sync: { startDate: addDays(todayUtc(), -options.historyDays), lookbackDays: options.lookbackDays, windowDays },
      warehouse: { path: warehousePath },
      log: { level: 'warn' },
    });
    const first = await runCli(['sync', '--config', config]);
    if (first.status !== 0) throw new Error(`the first sync exited ${first.status}: ${first.stderr.slice(-2000)}`);
    sim.clearRequests();
    const second = await runCli(['sync', '--config', config]);
    if (second.status !== 0) throw new Error(`the second sync exited ${second.status}: ${second.stderr.slice(-2000)}`);
    const requests = sim.requests;

    const warehouse = await openWarehouse(warehousePath);
    let rowsChanged: number;
    let accountIds: number;
    try {
      const runs = await warehouse.readRuns(1);
      rowsChanged = runs[0]?.rowsWritten ?? Number.NaN;
      const found = await warehouse.query<{ n: number }>(
        `SELECT count(DISTINCT account_id)::INTEGER AS n FROM (
           SELECT account_id FROM current_venue_roles UNION ALL SELECT account_id FROM current_project_roles
         ) WHERE account_id IS NOT NULL`,
      );
      accountIds = found[0]?.n ?? 0;
    } finally {
      await warehouse.close();
    }

    const pages = (n: number) => Math.max(1, Math.ceil(n / pageSize));
    const rolePages =
      venues.reduce((n, id) => n + pages(sim.truth.venueRoles(id).length), 0) + projects.reduce((n, id) => n + pages(sim.truth.projectRoles(id).length), 0);
    const analytics = venues.length * (HISTORY_STREAMS * Math.ceil(options.lookbackDays / windowDays) + SUMMARY_STREAMS * options.lookbackDays);
    const accountRequests = Math.ceil(accountIds / accountsBatchSize) + 1;
    const minimum = 1 + analytics + rolePages + accountRequests;

    const byKind = new Map<string, number>();
    for (const r of requests) {
      const kind = r.path.startsWith('/analytics/') || r.path.startsWith('/statistics/') ? 'analytics' : (r.path.split('/')[2] ?? r.path);
      byKind.set(kind, (byKind.get(kind) ?? 0) + 1);
    }
    const days = new Set(requests.flatMap((r) => /(?:^|&)from=(\d{4}-\d{2}-\d{2})/.exec(r.query)?.[1] ?? []));
    const oldest = [...days].sort()[0];
    return {
      id: 'B4',
      what: `2nd nightly sync, nothing new (${options.venues} venues, lookback ${options.lookbackDays} d)`,
      measured: `${fmt.count(requests.length)} requests, ${fmt.count(rowsChanged)} rows changed`,
      limit: `minimum ${fmt.count(minimum)} requests, 0 rows`,
      ratio: fmt.ratio(requests.length / minimum),
      target: 'requests = minimum, 0 rows',
      met: requests.length === minimum && rowsChanged === 0 && oldest === addDays(todayUtc(), -options.lookbackDays),
      notes: [
        `Minimum = 1 access check + ${fmt.count(analytics)} analytics (${options.venues} venues x (${HISTORY_STREAMS} history x 1 window + ` +
          `${SUMMARY_STREAMS} summaries x ${options.lookbackDays} days)) + ${rolePages} role pages + ${accountRequests} account requests ` +
          `(${accountIds} ids in batches of ${accountsBatchSize}, plus me).`,
        `Made: ${[...byKind].map(([k, n]) => `${k} ${n}`).join(', ')}; oldest day asked: ${oldest ?? '-'} ` +
          `(yesterday minus ${options.lookbackDays - 1} is ${addDays(todayUtc(), -options.lookbackDays)}).`,
        `First sync: ${fmt.seconds(first.wallMs)}; second: ${fmt.seconds(second.wallMs)}. The access check and the accounts stream both ` +
          'GET the `me` account: sharing that answer would save one more request.',
      ],
    };
  } finally {
    await sim.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
