/**
 * Crash matrix, intake side: the event receiver (the built package, in a child process) is
 * killed with SIGKILL at seeded moments — right after the N-th acknowledgement, at a moment in
 * time, inside the N-th merge commit — while senders keep delivering (each event until it is
 * acknowledged, some of them twice, as the platform retries). After the last restart and merge,
 * the warehouse must equal a receiver that was never killed, no acknowledged event may be
 * missing, and none may be stored twice.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildWorld, generateEvents } from '../../src/simulator/index.js';
import { resolveOptions } from '../../src/simulator/options.js';
import { assertBuilt, queryWarehouse, seededRandom } from '../e2e/harness.js';
import { budget, reportFigure, reportTable, size } from './figures.js';
import { postRaw, startReceiverChild, type ReceiverChild } from './receiver-child.js';

const KILLS = size(6, 15);
const EVENTS = size(600, 3000);
const SENDERS = 6;
const AUTH = `Basic ${Buffer.from(`platform:${'k'.repeat(12)}`).toString('base64')}`;
const PAUSE_ENV = 'VENUE_ETL_TEST_PAUSE_BEFORE_COMMIT_MS';

let dir: string;
beforeAll(() => {
  assertBuilt();
  dir = mkdtempSync(join(tmpdir(), 'venue-etl-crash-receiver-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');
const headers = { 'content-type': 'application/json', authorization: AUTH };

/** Each event once, a fifth of them twice (byte for byte), in a seeded order. */
function deliveries(): string[] {
  const world = buildWorld(resolveOptions({ seed: 5, venues: 6, days: 200 }));
  const events = generateEvents(world, EVENTS).map((e) => e.json);
  const random = seededRandom(77);
  const list = [...events, ...events.filter(() => random() < 0.2)];
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j]!, list[i]!];
  }
  return list;
}

/** Delivers everything once to a receiver that is never killed: the reference warehouse. */
async function cleanRun(bodies: readonly string[], warehousePath: string): Promise<void> {
  const receiver = await startReceiverChild({ authorization: AUTH, journalDir: join(dir, 'clean-journal'), warehousePath });
  const agent = new Agent({ keepAlive: true, maxSockets: SENDERS });
  let next = 0;
  await Promise.all(
    Array.from({ length: SENDERS }, async () => {
      while (next < bodies.length) {
        const reply = await postRaw(receiver.url, bodies[next++]!, { headers, agent });
        expect(reply.status).toBe(200);
      }
    }),
  );
  agent.destroy();
  expect(await receiver.mergeAndStop()).toMatchObject({ status: 'merged' });
}

interface KillRecord {
  readonly moment: string;
  readonly killed: boolean;
  readonly acksBefore: number;
  readonly ms: number;
}

it(
  'a receiver killed at seeded moments loses no acknowledged event, stores none twice, and ends equal to one never killed',
  async () => {
    const bodies = deliveries();
    const cleanPath = join(dir, 'clean.duckdb');
    await cleanRun(bodies, cleanPath);

    const warehousePath = join(dir, 'warehouse.duckdb');
    const journalDir = join(dir, 'journal');
    const random = seededRandom(4242);
    const queue = [...bodies];
    const acknowledged = new Set<string>();
    const records: KillRecord[] = [];
    let current: ReceiverChild | undefined;
    let up: Promise<void> = Promise.resolve();
    let markUp: () => void = () => undefined;
    let acksThisLife = 0;
    let onAck: (() => void) | undefined;
    let stopSending = false;
    let networkErrors = 0;
    let refusals = 0;

    // Senders deliver each body until it is answered 200; while the receiver is down they wait.
    const agent = new Agent({ keepAlive: true, maxSockets: SENDERS });
    const sender = async (): Promise<void> => {
      while (!stopSending) {
        const body = queue.shift();
        if (body === undefined) {
          await delay(5);
          continue;
        }
        await up;
        const target = current;
        try {
          if (!target) throw new Error('down');
          const reply = await postRaw(target.url, body, { headers, agent });
          if (reply.status === 200) {
            acknowledged.add(sha(body));
            acksThisLife++;
            onAck?.();
            // A steady stream, not a burst: kills land while deliveries are in flight.
            await delay(2);
            continue;
          }
          refusals++;
        } catch {
          networkErrors++;
        }
        queue.push(body);
        await delay(10);
      }
    };

    const start = async (env?: Record<string, string>): Promise<ReceiverChild> => {
      const receiver = await startReceiverChild({ authorization: AUTH, journalDir, warehousePath, mergeIntervalMs: 30, ...(env ? { env } : {}) });
      current = receiver;
      acksThisLife = 0;
      markUp();
      return receiver;
    };
    const goDown = (): void => {
      current = undefined;
      up = new Promise((resolve) => (markUp = resolve));
    };

    goDown();
    const senders = Array.from({ length: SENDERS }, sender);
    const kinds = ['ack', 'time', 'commit'] as const;
    for (let i = 0; records.filter((r) => r.killed).length < KILLS && i < KILLS * 3; i++) {
      const kind = kinds[i % kinds.length]!;
      const started = Date.now();
      let moment: string;
      let receiver: ReceiverChild;
      if (kind === 'commit') {
        // Every merge transaction waits before COMMIT: the kill lands inside the k-th one.
        receiver = await start({ [PAUSE_ENV]: '300' });
        const k = 1 + Math.floor(random() * 2);
        moment = `merge commit ${k}`;
        await Promise.race([
          (async () => {
            while (receiver.count(/paused before commit/) < k) await delay(5);
          })(),
          delay(8000),
        ]);
      } else if (kind === 'ack') {
        receiver = await start();
        const n = 1 + Math.floor(random() * 60);
        moment = `ack ${n}`;
        await Promise.race([new Promise<void>((resolve) => (onAck = () => acksThisLife >= n && resolve())), delay(8000)]);
        onAck = undefined;
      } else {
        receiver = await start();
        const ms = Math.round(30 + random() * 400);
        moment = `${ms} ms`;
        await delay(ms);
      }
      const killed = receiver.child.exitCode === null;
      const acksBefore = acksThisLife;
      goDown();
      await receiver.kill();
      records.push({ moment, killed, acksBefore, ms: Date.now() - started });
    }

    // The last life: everything not yet acknowledged is delivered, then merged.
    const last = await start();
    while (queue.length > 0 || acknowledged.size < new Set(bodies.map(sha)).size) await delay(20);
    stopSending = true;
    await Promise.all(senders);
    agent.destroy();
    const merge = await last.mergeAndStop();

    const [events, duplicateEvents, duplicateAgreements] = await queryWarehouse(
      warehousePath,
      `SELECT event_id FROM upsert_events`,
      `SELECT count(*)::INTEGER AS n FROM (SELECT event_id FROM upsert_events GROUP BY ALL HAVING count(*) > 1)`,
      `SELECT count(*)::INTEGER AS n FROM (SELECT user_id, venue_id, accepted_date, texts FROM user_venue_agreements GROUP BY ALL HAVING count(*) > 1)`,
    );
    const stored = new Set(events.map((e) => String(e.event_id)));
    const lost = [...acknowledged].filter((id) => !stored.has(id)).length;
    const differing = await differingRows(warehousePath, cleanPath);
    const landed = records.filter((r) => r.killed);
    reportTable('receiver kills', records);
    reportFigure('crash-matrix', {
      op: 'receiver intake',
      kills: landed.length,
      atMergeCommit: landed.filter((r) => r.moment.startsWith('merge')).length,
      deliveries: bodies.length,
      distinctEvents: new Set(bodies.map(sha)).size,
      acknowledged: acknowledged.size,
      acknowledgedLost: lost,
      duplicateEvents: Number(duplicateEvents[0]!.n),
      duplicateAgreements: Number(duplicateAgreements[0]!.n),
      differingRows: Object.values(differing).reduce((a, b) => a + b, 0),
      retriedDeliveries: networkErrors + refusals,
      manualRepairs: merge.status === 'merged' ? 0 : 1,
    });
    expect(landed.length).toBe(KILLS);
    expect(merge).toMatchObject({ status: 'merged' });
    expect(lost).toBe(0);
    expect(stored.size).toBe(new Set(bodies.map(sha)).size);
    expect(Number(duplicateEvents[0]!.n)).toBe(0);
    expect(Number(duplicateAgreements[0]!.n)).toBe(0);
    expect(differing).toEqual(Object.fromEntries(Object.keys(differing).map((t) => [t, 0])));
  },
  budget(120_000, 400_000),
);

/** Rows that differ from the reference warehouse, per table (columns that depend on arrival times left out). */
async function differingRows(path: string, cleanPath: string): Promise<Record<string, number>> {
  const tables: Record<string, string> = {
    upsert_events: 'event_id, user_id, venue_id, body::VARCHAR',
    users: '* EXCLUDE (updated_at)',
    venues: '* EXCLUDE (updated_at)',
    user_venue_history: '* EXCLUDE (updated_at)',
    // event_id is the first delivery carrying the acceptance: it depends on arrival order.
    user_venue_agreements: '* EXCLUDE (event_id)',
  };
  const names = Object.keys(tables);
  const results = await queryWarehouse(
    path,
    `ATTACH '${cleanPath}' AS clean (READ_ONLY)`,
    ...names.map(
      (t) => `SELECT count(*)::INTEGER AS n FROM ((SELECT ${tables[t]} FROM ${t} EXCEPT ALL SELECT ${tables[t]} FROM clean.${t})
                          UNION ALL (SELECT ${tables[t]} FROM clean.${t} EXCEPT ALL SELECT ${tables[t]} FROM ${t}))`,
    ),
  );
  return Object.fromEntries(names.map((t, i) => [t, Number(results[i + 1]![0]!.n)]));
}
