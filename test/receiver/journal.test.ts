import { appendFileSync, existsSync, mkdirSync, readdirSync, renameSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { Agent } from 'node:http';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReceiver } from '../../src/receiver/index.js';
import { encodeRecord } from '../../src/receiver/journal-format.js';
import { readSegment } from '../../src/receiver/journal-reader.js';
import { JournalWriter } from '../../src/receiver/journal-writer.js';
import { AUTH, capturedLogger, eventBody, post, readTables, tempDir, receiverOptions } from './helpers.js';

let temp: ReturnType<typeof tempDir>;
beforeEach(() => {
  temp = tempDir();
});
afterEach(() => temp.cleanup());

const segmentsIn = (dir: string): string[] =>
  readdirSync(dir)
    .filter((name) => name.endsWith('.journal'))
    .sort();
const LIMITS = { maxRecords: 1_000_000, maxBytes: 1 << 30 };

describe('the journal', () => {
  it('reads back what was appended, and stops at a torn last record', async () => {
    const dir = join(temp.dir, 'journal');
    const writer = await JournalWriter.open({ dir });
    const bodies = ['{"a":1}', '{"b":2}', '{"c":3}'].map((text) => Buffer.from(text));
    await Promise.all(bodies.map((body, i) => writer.append(body, 1_700_000_000_000 + i)));
    await writer.close();
    const path = join(dir, segmentsIn(dir)[0]);

    const clean = await readSegment(path, 0, LIMITS);
    expect(clean.stop).toBe('end');
    expect(clean.records.map((r) => [r.body.toString(), r.receivedAtMs])).toEqual(bodies.map((b, i) => [b.toString(), 1_700_000_000_000 + i]));

    // A write cut short by a crash: half of a fourth record.
    appendFileSync(path, encodeRecord(Buffer.from('{"d":4}'), 1).subarray(0, 13));
    const torn = await readSegment(path, 0, LIMITS);
    expect(torn.stop).toBe('torn');
    expect(torn.records).toHaveLength(3);
    expect(torn.next).toBe(clean.next);

    // A complete-looking record whose checksum does not match is torn as well.
    const bad = encodeRecord(Buffer.from('{"e":5}'), 1);
    bad[14] ^= 0xff;
    truncateSync(path, clean.next);
    appendFileSync(path, bad);
    expect(await readSegment(path, clean.next, LIMITS)).toEqual({ records: [], next: clean.next, stop: 'torn' });
    // …and reading from the last merged offset finds nothing new in a clean file.
    truncateSync(path, clean.next);
    expect(await readSegment(path, clean.next, LIMITS)).toEqual({ records: [], next: clean.next, stop: 'end' });
  });

  it('shares one write+fsync among appends that arrive together (group commit)', async () => {
    const writer = await JournalWriter.open({ dir: join(temp.dir, 'journal') });
    await Promise.all(Array.from({ length: 200 }, (_, i) => writer.append(Buffer.from(`{"n":${i}}`), i)));
    const { records, flushes } = writer.stats;
    await writer.close();
    expect(records).toBe(200);
    expect(flushes).toBeLessThan(20);
  });

  it('refuses a second writer on the same folder', async () => {
    const dir = join(temp.dir, 'journal');
    const writer = await JournalWriter.open({ dir });
    await expect(JournalWriter.open({ dir })).rejects.toMatchObject({ code: 'VENUE_RECEIVER_JOURNAL_LOCKED' });
    await writer.close();
    const again = await JournalWriter.open({ dir });
    await again.close();
  });
});

describe('after a crash', () => {
  it('merges every complete record and ignores a torn tail', async () => {
    const journalDir = join(temp.dir, 'journal');
    const warehousePath = join(temp.dir, 'warehouse.duckdb');
    const options = receiverOptions({
      journalDir,
      warehousePath,
    });
    const first = await startReceiver(options);
    const bodies = [1, 2, 3].map((visits) => eventBody({ visits, last: `2026-01-0${visits}T10:00:00Z` }));
    for (const body of bodies) expect((await post(first.url, body)).status).toBe(200);
    await first.close();
    const [segment] = segmentsIn(journalDir);
    appendFileSync(join(journalDir, segment), encodeRecord(Buffer.from(eventBody({ visits: 99 })), Date.now()).subarray(0, 200));

    const second = await startReceiver(options);
    const merge = await second.mergeNow();
    await second.close();
    expect(merge).toMatchObject({ status: 'merged', inserted: 3, segmentsTorn: 1 });
    const tables = await readTables(warehousePath);
    expect(tables.events).toHaveLength(3);
    expect(tables.history[0].visits_count).toBe(3);
    expect(existsSync(join(journalDir, `${segment}.torn`))).toBe(true);
    expect(segmentsIn(journalDir)).not.toContain(segment);
  });
});

describe('a journaled record the warehouse cannot store', () => {
  it('(left by an older receiver) is skipped and logged, and does not hold back the records after it', async () => {
    const journalDir = join(temp.dir, 'journal');
    const warehousePath = join(temp.dir, 'warehouse.duckdb');
    const writer = await JournalWriter.open({ dir: journalDir });
    // What intake refuses now: a lone surrogate escape, an instant pushed into year 10000.
    await writer.append(Buffer.from(eventBody().replace('"Ana"', '"An\\ud800a"')), Date.now());
    await writer.append(Buffer.from(eventBody({ last: '9999-12-31T23:59:59-23:59' })), Date.now());
    await writer.append(Buffer.from(eventBody({ visits: 7 })), Date.now());
    await writer.close();
    const log = capturedLogger();
    const receiver = await startReceiver(
      receiverOptions({
        journalDir,
        warehousePath,
        logger: log.logger,
      }),
    );
    const merge = await receiver.mergeNow();
    await receiver.close();
    expect(merge).toMatchObject({ status: 'merged', inserted: 1, invalid: 2 });
    expect((await readTables(warehousePath)).history[0].visits_count).toBe(7);
    expect(log.lines()).toContain('journaled event no longer valid; skipped');
  });
});

describe('close()', () => {
  it('finishes in-flight requests on keep-alive connections promptly; what it acknowledged is merged later', async () => {
    const journalDir = join(temp.dir, 'journal');
    const warehousePath = join(temp.dir, 'warehouse.duckdb');
    const options = receiverOptions({
      journalDir,
      warehousePath,
    });
    const receiver = await startReceiver(options);
    const agent = new Agent({ keepAlive: true, maxSockets: 8 });
    const sending = Array.from({ length: 40 }, (_, i) => post(receiver.url, eventBody({ visits: i + 1 }), { agent }));
    await expect.poll(() => receiver.stats.requests).toBeGreaterThanOrEqual(8);
    const started = Date.now();
    const closed = receiver.close();
    const answers = await Promise.allSettled(sending);
    await closed;
    agent.destroy();
    expect(Date.now() - started).toBeLessThan(3000);
    const acknowledged = answers.filter((a) => a.status === 'fulfilled' && a.value.status === 200).length;
    expect(acknowledged).toBeGreaterThanOrEqual(8);

    const restarted = await startReceiver(options);
    expect(await restarted.mergeNow()).toMatchObject({ status: 'merged', inserted: acknowledged });
    await restarted.close();
  });
});

describe('a journal that cannot write', () => {
  it('answers 503 with Retry-After and stores nothing, then recovers', async () => {
    const journalDir = join(temp.dir, 'journal');
    const warehousePath = join(temp.dir, 'warehouse.duckdb');
    const log = capturedLogger();
    // Every write starts a new segment, so the folder is needed at each request.
    const receiver = await startReceiver(
      receiverOptions({
        journalDir,
        warehousePath,
        logger: log.logger,
        maxSegmentBytes: 1,
      }),
    );
    try {
      expect((await post(receiver.url, eventBody({ visits: 1 }))).status).toBe(200);
      // The folder disappears and a file takes its place: creating a segment fails.
      renameSync(journalDir, `${journalDir}.away`);
      writeFileSync(journalDir, 'not a folder');
      const refused = await post(receiver.url, eventBody({ visits: 2 }));
      expect(refused.status).toBe(503);
      expect(refused.headers['retry-after']).toMatch(/^\d+$/);
      expect(refused.json().error?.code).toBe('unavailable');

      rmSync(journalDir);
      renameSync(`${journalDir}.away`, journalDir);
      expect((await post(receiver.url, eventBody({ visits: 3 }))).status).toBe(200);
      expect(await receiver.mergeNow()).toMatchObject({ status: 'merged', inserted: 2 });
      const { events, history } = await readTables(warehousePath);
      expect(events).toHaveLength(2);
      expect(history[0].visits_count).toBe(3);
      expect(log.lines()).not.toContain(AUTH);
    } finally {
      if (!existsSync(journalDir)) mkdirSync(journalDir);
      await receiver.close();
    }
  });
});
