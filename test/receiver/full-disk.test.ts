import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../../src/receiver/index.js';
import { readSegment } from '../../src/receiver/journal-reader.js';
import { isSegmentName } from '../../src/receiver/journal-segments.js';
import { JournalWriter } from '../../src/receiver/journal-writer.js';
import { eventBody, post, readTables, tempDir, receiverOptions } from './helpers.js';
import { mountSmallDisk, type SmallDisk } from './small-disk.js';

// A real full disk: a 1 MiB tmpfs this test mounts (and fills with a filler file).
let disk: SmallDisk;
let temp: ReturnType<typeof tempDir>;
beforeAll(() => {
  disk = mountSmallDisk(1024 * 1024);
  temp = tempDir();
});
afterEach(() => disk.free());
afterAll(() => {
  disk?.unmount();
  temp?.cleanup();
});

const LIMITS = { maxRecords: 1_000_000, maxBytes: 1 << 30 };
const segmentFiles = (dir: string): { name: string; size: number }[] =>
  readdirSync(dir)
    .filter(isSegmentName)
    .sort()
    .map((name) => ({ name, size: statSync(join(dir, name)).size }));

async function journaledBodies(dir: string): Promise<string[]> {
  const bodies: string[] = [];
  for (const { name } of segmentFiles(dir)) bodies.push(...(await readSegment(join(dir, name), 0, LIMITS)).records.map((r) => r.body.toString()));
  return bodies;
}

describe('the journal on a full disk', () => {
  it('keeps nothing of a refused round, not even the records written whole before the disk filled', async () => {
    const dir = join(disk.dir, 'journal-round');
    const writer = await JournalWriter.open({ dir });
    const first = eventBody({ visits: 1 });
    await writer.append(Buffer.from(first), 1);
    // One page free: a round of 30 events (~25 KB) gets part of its bytes onto the disk, then ENOSPC.
    disk.fill(4096);
    const round = Array.from({ length: 30 }, (_, i) => eventBody({ visits: 100 + i }));
    const outcomes = await Promise.allSettled(round.map((body, i) => writer.append(Buffer.from(body), 10 + i)));
    const acknowledged = round.filter((_, i) => outcomes[i]!.status === 'fulfilled');
    expect(outcomes.filter((o) => o.status === 'rejected').length).toBeGreaterThan(3);
    disk.free();
    const later = [eventBody({ visits: 2 }), eventBody({ visits: 3 })];
    for (const body of later) await writer.append(Buffer.from(body), 100);
    await writer.close();
    expect(await journaledBodies(dir)).toEqual([first, ...acknowledged, ...later]);
    expect(segmentFiles(dir)).toHaveLength(1);
  });

  it('answers 503 and leaves no empty segment behind, however many requests it refuses', async () => {
    for (const maxSegmentBytes of [64 * 1024 * 1024, 1]) {
      // 1: every write starts a new segment, so each refused request tries to create one.
      const journalDir = join(disk.dir, `journal-litter-${maxSegmentBytes}`);
      const warehousePath = join(temp.dir, `litter-${maxSegmentBytes}.duckdb`);
      const receiver = await startReceiver(
        receiverOptions({
          journalDir,
          warehousePath,
          maxSegmentBytes,
        }),
      );
      try {
        const accepted = [eventBody({ visits: 1 })];
        expect((await post(receiver.url, accepted[0]!)).status).toBe(200);
        disk.fill();
        // The segment's last page may still have room for a few events.
        for (let i = 0; i < 8; i++) {
          const body = eventBody({ visits: 30 + i });
          if ((await post(receiver.url, body)).status !== 200) break;
          accepted.push(body);
        }
        const before = segmentFiles(journalDir);
        for (let i = 0; i < 20; i++) {
          const refused = await post(receiver.url, eventBody({ visits: 10 + i }));
          expect(refused.status).toBe(503);
          expect(refused.headers['retry-after']).toMatch(/^\d+$/);
        }
        expect(segmentFiles(journalDir)).toEqual(before);
        expect(segmentFiles(journalDir).filter((s) => s.size === 0)).toEqual([]);
        disk.free();
        const later = eventBody({ visits: 2 });
        expect((await post(receiver.url, later)).status).toBe(200);
        expect(await receiver.mergeNow()).toMatchObject({ status: 'merged' });
        const stored = (await readTables(warehousePath)).events.map((e) => e.body).sort();
        expect(stored).toEqual([...accepted, later].map((b) => JSON.stringify(JSON.parse(b))).sort());
      } finally {
        disk.free();
        await receiver.close();
      }
    }
  });

  it('a later merge stores exactly the events answered 200', async () => {
    const journalDir = join(disk.dir, 'journal-merge');
    mkdirSync(journalDir, { recursive: true });
    const warehousePath = join(temp.dir, 'merge.duckdb');
    const receiver = await startReceiver(
      receiverOptions({
        journalDir,
        warehousePath,
      }),
    );
    const answered = new Map<string, number>();
    try {
      expect((await post(receiver.url, eventBody({ visits: 1 }))).status).toBe(200);
      disk.fill(8192);
      // Concurrent senders: their events share write rounds, some of which the disk cuts short.
      const bodies = Array.from({ length: 60 }, (_, i) => eventBody({ visits: 200 + i }));
      const answers = await Promise.all(bodies.map((body) => post(receiver.url, body)));
      answers.forEach((answer, i) => {
        answered.set(bodies[i]!, answer.status);
      });
      expect(answers.filter((a) => a.status === 503).length).toBeGreaterThan(0);
      disk.free();
      expect(await receiver.mergeNow()).toMatchObject({ status: 'merged' });
    } finally {
      await receiver.close();
    }
    const stored = new Set((await readTables(warehousePath)).events.map((e) => e.body));
    const normalized = (body: string): string => JSON.stringify(JSON.parse(body));
    const refusedButStored = [...answered].filter(([body, status]) => status !== 200 && stored.has(normalized(body)));
    const acknowledgedButLost = [...answered].filter(([body, status]) => status === 200 && !stored.has(normalized(body)));
    expect({ refusedButStored: refusedButStored.length, acknowledgedButLost: acknowledgedButLost.length }).toEqual({
      refusedButStored: 0,
      acknowledgedButLost: 0,
    });
  });
});
