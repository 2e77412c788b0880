import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mergeJournal, sharedWarehouse, startReceiver } from '../../src/receiver/index.js';
import { Mutex } from '../../src/warehouse/mutex.js';
import { openWarehouse, type Warehouse } from '../../src/warehouse/index.js';
import { capturedLogger, eventBody, post, tempDir, receiverOptions } from './helpers.js';

let temp: ReturnType<typeof tempDir>;
let warehouse: Warehouse;
beforeEach(async () => {
  temp = tempDir();
  warehouse = await openWarehouse(join(temp.dir, 'warehouse.duckdb'));
});
afterEach(async () => {
  await warehouse.close();
  temp.cleanup();
});

const count = async (): Promise<number> => (await warehouse.query<{ n: number }>('SELECT count(*)::INTEGER AS n FROM upsert_events'))[0].n;

describe('a receiver inside a process that already holds the warehouse (serve)', () => {
  it('merges through the lent handle, queued behind the other writers', async () => {
    const writers = new Mutex();
    const receiver = await startReceiver(
      receiverOptions({
        journalDir: join(temp.dir, 'journal'),
        warehouse: sharedWarehouse(warehouse, (section) => writers.run(section)),
      }),
    );
    try {
      // A job holds the writer queue (a sync running for minutes)…
      let finishJob!: () => void;
      const job = writers.run(() => new Promise<void>((resolve) => (finishJob = resolve)));
      // …intake goes on, the merge waits its turn.
      for (let visits = 1; visits <= 3; visits++) expect((await post(receiver.url, eventBody({ visits }))).status).toBe(200);
      let merged = false;
      const merge = receiver.mergeNow().then((result) => {
        merged = true;
        return result;
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(merged).toBe(false);
      expect(await count()).toBe(0);
      finishJob();
      await job;
      expect(await merge).toMatchObject({ status: 'merged', inserted: 3 });
      expect(await count()).toBe(3);
    } finally {
      await receiver.close();
    }
  });

  it('refuses to start without an authorization value', async () => {
    await expect(
      startReceiver({
        host: '127.0.0.1',
        port: 0,
        authorization: ' ',
        maxBodyBytes: 65536,
        journalDir: join(temp.dir, 'journal'),
        warehouse: sharedWarehouse(warehouse),
        logger: capturedLogger().logger,
      }),
    ).rejects.toMatchObject({ code: 'VENUE_RECEIVER_CONFIG' });
  });

  it('lets another command merge a journal with mergeJournal', async () => {
    const journalDir = join(temp.dir, 'journal');
    const receiver = await startReceiver(
      receiverOptions({
        journalDir,
        warehouse: sharedWarehouse(warehouse),
      }),
    );
    for (let visits = 1; visits <= 4; visits++) expect((await post(receiver.url, eventBody({ visits }))).status).toBe(200);
    // While the receiver runs: its segment is the newest, so it is merged but kept.
    expect(await mergeJournal(journalDir, warehouse)).toMatchObject({ status: 'merged', inserted: 4, segmentsRemoved: 0 });
    await receiver.close();
    expect(await count()).toBe(4);
    // Nothing left to merge twice.
    expect(await mergeJournal(journalDir, warehouse)).toMatchObject({ inserted: 0, duplicates: 0 });
  });
});
