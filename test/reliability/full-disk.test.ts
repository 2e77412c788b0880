/**
 * A full disk under the receiver (the built package, in a child process): its journal on a
 * 1 MiB tmpfs this test mounts, filled up but for a few pages, while 24 keep-alive senders post
 * events at once (so appends share write rounds that the disk cuts short). Then the disk is
 * freed and the journal merged. Every event answered 503 must be absent from the warehouse,
 * every event answered 200 present, and the journal folder must hold no empty segment.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildWorld, generateEvents } from '../../src/simulator/index.js';
import { resolveOptions } from '../../src/simulator/options.js';
import { assertBuilt, queryRows } from '../e2e/harness.js';
import { mountSmallDisk, type SmallDisk } from '../receiver/small-disk.js';
import { budget, reportFigure, reportTable, size } from './figures.js';
import { postRaw, startReceiverChild } from './receiver-child.js';

const TRIALS = size(6, 20);
const EVENTS = 120;
const SENDERS = 24;
const AUTH = `Basic ${Buffer.from(`platform:${'d'.repeat(12)}`).toString('base64')}`;
const headers = { 'content-type': 'application/json', authorization: AUTH };
const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

let disk: SmallDisk;
let dir: string;
beforeAll(() => {
  assertBuilt();
  disk = mountSmallDisk(1024 * 1024);
  dir = mkdtempSync(join(tmpdir(), 'venue-etl-full-disk-'));
});
afterAll(() => {
  disk?.unmount();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it(
  'stores nothing of a request answered 503 on a full disk and leaves no empty segment',
  async () => {
    const world = buildWorld(resolveOptions({ seed: 11, venues: 6, days: 100 }));
    const rows = [];
    for (let trial = 0; trial < TRIALS; trial++) {
      const journalDir = join(disk.dir, `journal-${trial}`);
      mkdirSync(journalDir);
      const warehousePath = join(dir, `trial-${trial}.duckdb`);
      const receiver = await startReceiverChild({ authorization: AUTH, journalDir, warehousePath, mergeIntervalMs: 0 });
      const bodies = generateEvents(world, EVENTS + 1)
        .map((e) => e.json)
        .slice(trial % 2);
      expect((await postRaw(receiver.url, bodies[0]!, { headers })).status).toBe(200);
      // 0–3 pages left: the first rounds fit, a later one is cut part-way, the rest find no room.
      disk.fill((trial % 4) * 4096);
      const agent = new Agent({ keepAlive: true, maxSockets: SENDERS });
      const statuses = new Map<string, number>();
      let next = 1;
      await Promise.all(
        Array.from({ length: SENDERS }, async () => {
          while (next < bodies.length) {
            const body = bodies[next++]!;
            statuses.set(sha(body), (await postRaw(receiver.url, body, { headers, agent })).status);
          }
        }),
      );
      agent.destroy();
      const emptySegments = readdirSync(journalDir).filter((name) => name.endsWith('.journal') && statSync(join(journalDir, name)).size === 0).length;
      disk.free();
      await receiver.mergeAndStop();
      const stored = new Set((await queryRows(warehousePath, 'SELECT event_id FROM upsert_events')).map((r) => String(r.event_id)));
      const refused = [...statuses].filter(([, status]) => status === 503);
      const row = {
        trial,
        pagesLeft: trial % 4,
        accepted: [...statuses.values()].filter((s) => s === 200).length + 1,
        refused: refused.length,
        refusedStored: refused.filter(([id]) => stored.has(id)).length,
        acceptedLost: [...statuses].filter(([id, status]) => status === 200 && !stored.has(id)).length,
        emptySegments,
      };
      rows.push(row);
      expect(row.refused).toBeGreaterThan(0);
      expect(row.refusedStored).toBe(0);
      expect(row.acceptedLost).toBe(0);
      expect(row.emptySegments).toBe(0);
    }
    reportTable('full disk under the receiver', rows);
    reportFigure('full-disk', {
      trials: rows.length,
      requests: rows.reduce((n, r) => n + r.accepted + r.refused, 0),
      refused: rows.reduce((n, r) => n + r.refused, 0),
      trialsWithRefusedStored: rows.filter((r) => r.refusedStored > 0).length,
      refusedStored: rows.reduce((n, r) => n + r.refusedStored, 0),
      acceptedLost: rows.reduce((n, r) => n + r.acceptedLost, 0),
      emptySegments: rows.reduce((n, r) => n + r.emptySegments, 0),
    });
  },
  budget(60_000, 180_000),
);
