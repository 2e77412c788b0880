import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startReceiver, type RunningReceiver } from '../../src/receiver/index.js';
import { capturedLogger, eventBody, post, readTables, tempDir, USER_1, USER_2, VENUE_1, VENUE_2, receiverOptions } from './helpers.js';
import { createHash } from 'node:crypto';

let temp: ReturnType<typeof tempDir>;
let receiver: RunningReceiver;
const warehousePath = (): string => join(temp.dir, 'warehouse.duckdb');

beforeEach(async () => {
  temp = tempDir();
  receiver = await startReceiver(
    receiverOptions({
      journalDir: join(temp.dir, 'journal'),
      warehousePath: warehousePath(),
      logger: capturedLogger('info').logger,
    }),
  );
});

afterEach(async () => {
  await receiver.close();
  temp.cleanup();
});

async function deliver(...bodies: string[]): Promise<void> {
  for (const body of bodies) expect((await post(receiver.url, body)).status).toBe(200);
}

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('merging accepted events', () => {
  it('writes exactly the expected rows for one event', async () => {
    const body = eventBody();
    await deliver(body);
    expect(await receiver.mergeNow()).toMatchObject({ status: 'merged', records: 1, inserted: 1, duplicates: 0 });
    const tables = await readTables(warehousePath());
    expect(tables.events).toEqual([{ event_id: sha(body), user_id: USER_1, venue_id: VENUE_1, body }]);
    expect(tables.users).toEqual([
      {
        user_id: USER_1,
        email: 'ana@example.com',
        email_confirmed: true,
        first_name: 'Ana',
        last_name: 'Kowalska',
        phone: '+48123456789',
        phone_confirmed: false,
        language: 'pl',
        birth_date: '1990-04-05',
        gender: 'female',
        is_subscribed: true,
      },
    ]);
    expect(tables.venues).toEqual([
      { venue_id: VENUE_1, name: 'Cafe Central', address: 'Rynek 1', city: 'Krakow', country: 'PL', created_at: '2024-03-01 08:30:00.123456+00' },
    ]);
    expect(tables.history).toEqual([
      { user_id: USER_1, venue_id: VENUE_1, visits_count: 3, first_visit_on: '2026-01-01T10:00:00Z', last_visit_on: '2026-01-10T18:00:00Z' },
    ]);
    expect(tables.agreements).toEqual([
      { user_id: USER_1, venue_id: VENUE_1, accepted_date: '2026-01-01T10:00:05Z', texts: ['I accept the terms of use.'], event_id: sha(body) },
    ]);
  });

  it('stores the same body once, in one merge or across merges', async () => {
    const body = eventBody();
    await deliver(body, body);
    expect(await receiver.mergeNow()).toMatchObject({ records: 2, inserted: 1, duplicates: 1 });
    await deliver(body);
    expect(await receiver.mergeNow()).toMatchObject({ records: 1, inserted: 0, duplicates: 1 });
    const tables = await readTables(warehousePath());
    expect(tables.events).toHaveLength(1);
    expect(tables.agreements).toHaveLength(1);
    expect(tables.history).toHaveLength(1);
  });

  it('never moves visits_count or last_visit_on backwards, whatever the order of arrival', async () => {
    const newer = eventBody({ visits: 7, first: '2026-01-01T10:00:00Z', last: '2026-02-01T12:00:00Z' });
    const older = eventBody({ visits: 4, first: '2026-01-01T10:00:00Z', last: '2026-01-15T12:00:00Z' });
    // A stale event whose sender knew an even earlier first visit.
    const oldest = eventBody({ visits: 2, first: '2025-12-24T08:00:00Z', last: '2026-01-02T12:00:00Z' });
    await deliver(newer);
    await receiver.mergeNow();
    await deliver(older, oldest);
    await receiver.mergeNow();
    const { history } = await readTables(warehousePath());
    expect(history).toEqual([
      { user_id: USER_1, venue_id: VENUE_1, visits_count: 7, first_visit_on: '2025-12-24T08:00:00Z', last_visit_on: '2026-02-01T12:00:00Z' },
    ]);
  });

  it('keeps one agreement row per acceptance', async () => {
    const terms = ['I accept the terms of use.'];
    const revised = ['I accept the revised terms of use.'];
    await deliver(
      eventBody({ visits: 1, last: '2026-01-01T10:00:00Z', accepted: '2026-01-01T10:00:05Z', texts: terms }),
      // The same acceptance repeated by a later event of the pair.
      eventBody({ visits: 2, last: '2026-01-05T10:00:00Z', accepted: '2026-01-01T10:00:05Z', texts: terms }),
      eventBody({ visits: 3, last: '2026-01-09T10:00:00Z', accepted: '2026-01-09T10:00:03Z', texts: revised }),
      eventBody({ user: USER_2, visits: 1, last: '2026-01-03T10:00:00Z', accepted: '2026-01-01T10:00:05Z', texts: terms }),
    );
    await receiver.mergeNow();
    await deliver(eventBody({ visits: 4, last: '2026-01-12T10:00:00Z', accepted: '2026-01-09T10:00:03Z', texts: revised }));
    await receiver.mergeNow();
    const { agreements } = await readTables(warehousePath());
    expect(agreements.map((a) => [a.user_id, a.accepted_date, a.texts])).toEqual([
      [USER_1, '2026-01-01T10:00:05Z', terms],
      [USER_1, '2026-01-09T10:00:03Z', revised],
      [USER_2, '2026-01-01T10:00:05Z', terms],
    ]);
  });

  it('does not let an older event overwrite newer attributes, and absent fields keep stored values', async () => {
    const newer = eventBody({ visits: 5, last: '2026-03-01T10:00:00Z', email: 'new@example.com', venueName: 'Cafe Central II' });
    const older = eventBody({ visits: 4, last: '2026-02-01T10:00:00Z', email: 'old@example.com', venueName: 'Cafe Central' });
    await deliver(newer);
    await receiver.mergeNow();
    await deliver(older);
    await receiver.mergeNow();
    // A newest event in the short form: no phone-confirmed, an explicit null phone.
    const short = JSON.parse(eventBody({ visits: 6, last: '2026-03-05T10:00:00Z', email: 'newest@example.com' }));
    delete short.data.user['phone-confirmed'];
    short.data.user.phone = null;
    await deliver(JSON.stringify(short));
    await receiver.mergeNow();
    const { users, venues } = await readTables(warehousePath());
    expect(users[0]).toMatchObject({ email: 'newest@example.com', phone: null, phone_confirmed: false });
    expect(venues[0].name).toBe('Cafe Central');
  });

  it('reaches the same state whatever order a mixed batch is merged in', async () => {
    const bodies = [
      eventBody({ visits: 1, last: '2026-01-01T10:00:00Z', email: 'a1@example.com', accepted: '2026-01-01T10:00:00Z' }),
      eventBody({ visits: 2, last: '2026-01-02T10:00:00Z', email: 'a2@example.com', accepted: '2026-01-01T10:00:00Z' }),
      eventBody({ visits: 3, last: '2026-01-03T10:00:00Z', email: 'a3@example.com', accepted: '2026-01-03T10:00:00Z' }),
      eventBody({ venue: VENUE_2, visits: 9, last: '2026-01-02T12:00:00Z', email: 'a2b@example.com' }),
      eventBody({ user: USER_2, visits: 1, last: '2026-01-04T10:00:00Z', email: 'b@example.com' }),
    ];
    await deliver(...[...bodies].reverse());
    await receiver.mergeNow();
    const reversed = await readTables(warehousePath());

    await receiver.close();
    temp.cleanup();
    temp = tempDir();
    receiver = await startReceiver(
      receiverOptions({
        journalDir: join(temp.dir, 'journal'),
        warehousePath: warehousePath(),
        logger: capturedLogger('info').logger,
      }),
    );
    for (const body of bodies) {
      await deliver(body);
      await receiver.mergeNow();
    }
    const inOrder = await readTables(warehousePath());
    // An agreement row names the first delivery that carried it, so only event_id may differ.
    const withoutEventId = (tables: typeof inOrder) => ({ ...tables, agreements: tables.agreements.map(({ event_id: _, ...a }) => a) });
    expect(withoutEventId(inOrder)).toEqual(withoutEventId(reversed));
    expect(inOrder.users.find((u) => u.user_id === USER_1)?.email).toBe('a3@example.com');
    expect(inOrder.history).toHaveLength(3);
    expect(inOrder.agreements).toHaveLength(4);
  });
});
