/**
 * Contention: `venue-etl serve` runs its jobs every few seconds (sync, Parquet export) and takes
 * events on its receiver, while CLI commands use the same warehouse and Parquet folder — sync,
 * backfill, sql, status, export, a second serve. Whoever must wait says so; whoever must stop
 * says why (a coded error naming the holder, a hint, no stack). Afterwards nothing is corrupt:
 * no duplicate keys, no run left running, the data equals the truth, every acknowledged event
 * is stored, the export reads back as the warehouse.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildWorld, generateEvents } from '../../src/simulator/index.js';
import { resolveOptions } from '../../src/simulator/options.js';
import {
  addDays,
  assertBuilt,
  childEnv,
  CLI,
  describeRun,
  diffMaps,
  duplicateKeys,
  NO_DIFF,
  queryRows,
  runsOf,
  startFixture,
  todayUtc,
  TOKEN_ENV,
  type CliResult,
  type Fixture,
} from '../e2e/harness.js';
import { readConfigDocument } from '../e2e/config-document.js';
import { expectedSeries, SERIES, storedSeries } from '../e2e/truth.js';
import { budget, reportFigure, reportTable, size } from './figures.js';
import { diffExportWithWarehouse } from './parquet-reads.js';
import { postRaw, startReceiverChild } from './receiver-child.js';
import { waitForOutput } from '../wait.js';
import { receiverUrl } from '../serve/serve-child.js';

const AUTH_ENV = 'VENUE_RECEIVER_AUTHORIZATION';
const AUTH = `Basic ${Buffer.from('platform:contention-test').toString('base64')}`;
const ROUNDS = size(1, 5);
const DAYS = 10;

let fx: Fixture;
beforeAll(async () => {
  assertBuilt();
  // Latency makes a sync last long enough to overlap with the others.
  fx = await startFixture({ sim: { seed: 13, venues: 2, days: 60, latencyMs: 15 }, config: { sync: { startDate: addDays(todayUtc(), -DAYS) } } });
});
afterAll(async () => {
  await fx?.close();
});

interface Outcome {
  readonly command: string;
  readonly exit: number | string;
  readonly ms: number;
  /** It said it was waiting for the warehouse. */
  readonly waited: boolean;
  /** Its error, when it stopped. */
  readonly error: string;
  /** A stop with a coded message and a hint, no stack trace. */
  readonly clear: boolean;
}

const outcome = (command: string, run: CliResult): Outcome => {
  const error = /^(VENUE_[A-Z_]+):/m.exec(run.stderr)?.[1] ?? '';
  const clear = run.code === 0 || (error !== '' && /\n {2}hint: \S/.test(run.stderr) && !/^\s+at /m.test(run.stderr));
  return { command, exit: run.code ?? String(run.signal), ms: run.durationMs, waited: /waiting up to/.test(run.stderr), error, clear };
};

it(
  'serve and CLI commands share the warehouse: clear messages for whoever waits or stops, nothing corrupt',
  async () => {
    const c = readConfigDocument(fx.configPath);
    c.receiver = { enabled: true, authorization: `\${${AUTH_ENV}}`, port: 0 };
    c.schedule = { jobs: { 'nightly-sync': '*/2 * * * * *', 'parquet-export': '*/3 * * * * *', 'roles-snapshot': '*/5 * * * * *' } };
    writeFileSync(fx.configPath, JSON.stringify(c, null, 2));
    const env = childEnv({ [TOKEN_ENV]: fx.sim.token, [AUTH_ENV]: AUTH });

    const serve = spawn(process.execPath, [CLI, 'serve', '--config', fx.configPath, '--log-level', 'info'], {
      cwd: fx.dir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let serveOut = '';
    serve.stdout.on('data', (d: Buffer) => (serveOut += d.toString('utf8')));
    serve.stderr.on('data', (d: Buffer) => (serveOut += d.toString('utf8')));
    const serveExit = new Promise<number | null>((resolve) => serve.on('exit', (code) => resolve(code)));
    await waitForOutput(serve, () => serveOut, /"event receiver listening"/);
    const url = receiverUrl(serveOut)!;

    // Events arrive all along, each delivered until acknowledged.
    const events = generateEvents(buildWorld(resolveOptions({ seed: 13, venues: 2, days: 60 })), size(300, 1500)).map((e) => e.json);
    const acknowledged = new Set<string>();
    let sending = true;
    const agent = new Agent({ keepAlive: true, maxSockets: 2 });
    const sender = (async () => {
      for (const body of events) {
        while (sending) {
          const reply = await postRaw(url, body, { headers: { 'content-type': 'application/json', authorization: AUTH }, agent }).catch(() => undefined);
          if (reply?.status === 200) {
            acknowledged.add(createHash('sha256').update(body).digest('hex'));
            break;
          }
          await delay(50);
        }
        await delay(15);
      }
    })();

    const cli = (args: readonly string[]) => fx.cli([...args, '--log-level', 'info'], { env, timeoutMs: 90_000 });
    const from = addDays(todayUtc(), -DAYS - 20);
    const to = addDays(todayUtc(), -DAYS - 1);
    const outcomes: Outcome[] = [];
    const lane = async (commands: readonly (readonly string[])[]) => {
      for (const args of commands) outcomes.push(outcome(args.slice(0, 2).join(' '), await cli(args)));
    };
    for (let round = 0; round < ROUNDS; round++) {
      await Promise.all([
        lane([['sync'], ['sql', 'SELECT stream, count(*) AS n FROM series_points GROUP BY ALL ORDER BY ALL'], ['status']]),
        lane([
          ['backfill', '--from', from, '--to', to, '--streams', 'venue-devices-history,venue-users-history', ...(round > 0 ? ['--force'] : [])],
          ['export'],
          ['sql', 'SELECT count(*) AS n FROM upsert_events', '--format', 'json'],
        ]),
        lane([['serve']]),
      ]);
    }
    sending = false;
    await sender;
    agent.destroy();

    serve.kill('SIGTERM');
    const serveCode = await serveExit;

    // After serve: merge what its journal still holds, sync once more, export once more.
    const journalDir = join(fx.dir, 'data', 'receiver-journal');
    const merge = await startReceiverChild({ authorization: AUTH, journalDir, warehousePath: fx.warehousePath }).then((r) => r.mergeAndStop());
    const finalSync = await cli(['sync']);
    const finalExport = await cli(['export']);

    const range = { venues: fx.venues, streams: SERIES, from: addDays(todayUtc(), -DAYS), to: addDays(todayUtc(), -1) };
    const truth = diffMaps(await storedSeries(fx.warehousePath, range), expectedSeries(fx.sim, range));
    const dup = await duplicateKeys(fx.warehousePath);
    const running = (await runsOf(fx.warehousePath)).filter((r) => r.status === 'running').length;
    const stored = new Set((await queryRows(fx.warehousePath, 'SELECT event_id FROM upsert_events')).map((r) => String(r.event_id)));
    const lost = [...acknowledged].filter((id) => !stored.has(id)).length;
    const exportDiff = await diffExportWithWarehouse(fx.warehousePath, join(fx.dir, 'parquet'));
    const jobs = (serveOut.match(/job finished/g) ?? []).length;
    const jobFailures = serveOut.split('\n').filter((l) => /job failed/.test(l));

    reportTable('contention: CLI commands while serve runs', outcomes);
    const stopped = outcomes.filter((o) => o.exit !== 0);
    reportFigure('contention', {
      cliCommands: outcomes.length,
      succeeded: outcomes.filter((o) => o.exit === 0).length,
      waitedThenRan: outcomes.filter((o) => o.waited && o.exit === 0).length,
      stopped: stopped.length,
      stopReasons: [...new Set(stopped.map((o) => o.error))].join(' '),
      clearMessagesPercent: Math.round((1000 * outcomes.filter((o) => o.clear).length) / outcomes.length) / 10,
      serveJobsFinished: jobs,
      serveJobsFailed: jobFailures.length,
      serveJobFailureReasons: [...new Set(jobFailures.map((l) => /job failed: (VENUE_[A-Z_]+)/.exec(l)?.[1] ?? 'uncoded'))].join(' '),
      eventsAcknowledged: acknowledged.size,
      acknowledgedLost: lost,
      duplicateKeys: dup.series + dup.summaries + dup.cursors,
      runsLeftRunning: running,
      seriesDifferingFromTruth: truth.missing + truth.extra + truth.different,
      exportDifferingRows: exportDiff.total,
      corruptions: dup.series + dup.summaries + dup.cursors + running + truth.missing + truth.extra + truth.different + lost + exportDiff.total,
    });

    expect(serveCode, serveOut.slice(-3000)).toBe(0);
    expect(merge).toMatchObject({ status: 'merged' });
    expect(finalSync.code, describeRun(finalSync)).toBe(0);
    expect(finalExport.code, describeRun(finalExport)).toBe(0);
    expect(
      outcomes.filter((o) => !o.clear),
      JSON.stringify(outcomes.filter((o) => !o.clear)),
    ).toEqual([]);
    // A second serve on the same warehouse is refused, naming the one that runs.
    expect(outcomes.filter((o) => o.command === 'serve').every((o) => o.exit === 1 && o.error === 'VENUE_SERVE_RUNNING')).toBe(true);
    expect(jobs).toBeGreaterThan(0);
    // A job that had to stop (e.g. its export found the CLI's export running) says why, coded.
    expect(jobFailures.filter((l) => !/job failed: VENUE_[A-Z_]+: /.test(l))).toEqual([]);
    expect(dup).toEqual({ series: 0, summaries: 0, cursors: 0 });
    expect(running).toBe(0);
    expect(truth).toEqual(NO_DIFF);
    expect(lost).toBe(0);
    expect(exportDiff.total).toBe(0);
  },
  budget(150_000, 400_000),
);
