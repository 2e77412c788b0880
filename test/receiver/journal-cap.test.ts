import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReceiver, type RunningReceiver } from '../../src/receiver/index.js';
import { isSegmentName } from '../../src/receiver/journal-segments.js';
import { capturedLogger, eventBody, holdWarehouseLock, post, readTables, receiverOptions, tempDir, type Answer } from './helpers.js';

let temp: ReturnType<typeof tempDir>;
const releases: (() => Promise<void>)[] = [];
const receivers: RunningReceiver[] = [];
beforeEach(() => {
  temp = tempDir();
});
afterEach(async () => {
  for (const receiver of receivers.splice(0)) await receiver.close();
  for (const release of releases.splice(0)) await release();
  temp.cleanup();
});

const journalDir = (): string => join(temp.dir, 'journal');
const warehousePath = (): string => join(temp.dir, 'warehouse.duckdb');

async function receiver(extra: { maxJournalBytes?: number; mergeIntervalMs?: number } = {}): Promise<RunningReceiver & { log: () => string }> {
  const log = capturedLogger('info');
  const started = await startReceiver(
    receiverOptions({
      journalDir: journalDir(),
      warehousePath: warehousePath(),
      logger: log.logger,
      ...extra,
    }),
  );
  receivers.push(started);
  return Object.assign(started, { log: log.lines });
}

async function lockWarehouse(): Promise<() => Promise<void>> {
  const held = await holdWarehouseLock(warehousePath());
  releases.push(() => held.release());
  return () => held.release();
}

describe('the journal cap (receiver.maxJournalBytes)', () => {
  it('refuses with 503 + Retry-After once the journal holds the cap while the warehouse stays locked, drops nothing acknowledged, and takes events again after a merge', async () => {
    const cap = 20_000;
    const release = await lockWarehouse();
    const intake = await receiver({ maxJournalBytes: cap, mergeIntervalMs: 50 });
    const accepted: string[] = [];
    let refused: Answer | undefined;
    for (let i = 0; i < 200 && refused === undefined; i++) {
      const body = eventBody({ visits: i + 1 });
      const answer = await post(intake.url, body);
      if (answer.status === 200) accepted.push(body);
      else refused = answer;
    }
    expect(refused?.status).toBe(503);
    expect(refused?.headers['retry-after']).toMatch(/^\d+$/);
    expect(refused?.json().error?.code).toBe('journal_full');
    // Each record is the body plus 16 bytes; the segment header is 8.
    const journaled = 8 + accepted.reduce((n, body) => n + Buffer.byteLength(body) + 16, 0);
    expect(journaled).toBeLessThanOrEqual(cap);
    expect(journaled + Buffer.byteLength(eventBody({ visits: 999 })) + 16).toBeGreaterThan(cap);
    expect(intake.stats.journal.refusedFull).toBeGreaterThan(0);
    expect(await intake.mergeNow()).toMatchObject({ status: 'locked' });

    await release();
    // The periodic merge (every 50 ms) may take the journal before this call does: what counts
    // is that every acknowledged event is in the warehouse once a merge has run.
    expect(await intake.mergeNow()).toMatchObject({ status: 'merged' });
    expect(intake.stats.journal.unmergedBytes).toBe(0);
    expect((await readTables(warehousePath())).events).toHaveLength(accepted.length);
    expect((await post(intake.url, eventBody({ visits: 500 }))).status).toBe(200);
    expect(await intake.mergeNow()).toMatchObject({ status: 'merged' });
    expect(intake.stats.journal.unmergedBytes).toBe(0);
    expect((await readTables(warehousePath())).events).toHaveLength(accepted.length + 1);
  });

  it('counts what an earlier run left unmerged in the journal', async () => {
    const release = await lockWarehouse();
    const first = await receiver();
    for (let i = 0; i < 20; i++) expect((await post(first.url, eventBody({ visits: i + 1 }))).status).toBe(200);
    await first.close();
    const second = await receiver({ maxJournalBytes: 10_000 });
    const answer = await post(second.url, eventBody({ visits: 99 }));
    expect(answer.status).toBe(503);
    expect(answer.json().error?.code).toBe('journal_full');
    await release();
    expect(await second.mergeNow()).toMatchObject({ status: 'merged', inserted: 20 });
    expect((await post(second.url, eventBody({ visits: 100 }))).status).toBe(200);
  });
});

describe('closing the receiver with a merge', () => {
  it('merges every acknowledged event and deletes the merged segments', async () => {
    const intake = await receiver();
    for (let i = 0; i < 30; i++) expect((await post(intake.url, eventBody({ visits: i + 1 }))).status).toBe(200);
    await intake.close({ mergeTimeoutMs: 20_000 });
    expect((await readTables(warehousePath())).events).toHaveLength(30);
    expect(readdirSync(journalDir()).filter(isSegmentName)).toEqual([]);
    expect(intake.log()).toMatch(/journal merged before stopping/);
  });

  it('leaves what it cannot merge in time in the journal, says so, and the next start merges it', async () => {
    const release = await lockWarehouse();
    const intake = await receiver();
    for (let i = 0; i < 10; i++) expect((await post(intake.url, eventBody({ visits: i + 1 }))).status).toBe(200);
    await intake.close({ mergeTimeoutMs: 600 });
    expect(intake.log()).toMatch(/acknowledged events left in the journal at stop \(the warehouse stayed locked by another process\)/);
    await release();
    const next = await receiver();
    expect(await next.mergeNow()).toMatchObject({ status: 'merged', inserted: 10 });
  });

  it('stops waiting for a locked warehouse at once when hurried', async () => {
    await lockWarehouse();
    const intake = await receiver();
    expect((await post(intake.url, eventBody())).status).toBe(200);
    const hurry = new AbortController();
    const closing = intake.close({ mergeTimeoutMs: 60_000, hurry: hurry.signal });
    setTimeout(() => hurry.abort(new Error('received a second SIGTERM')), 300);
    await closing;
    expect(intake.log()).toMatch(/a second signal cut the merge short|the warehouse stayed locked/);
    expect(readdirSync(journalDir()).filter(isSegmentName)).toHaveLength(1);
  });
});
