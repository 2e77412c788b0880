import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver, type RunningReceiver } from '../../src/receiver/index.js';
import { sendEvents } from '../../src/simulator/index.js';
import { AUTH, capturedLogger, readTables, tempDir } from './helpers.js';

let temp: ReturnType<typeof tempDir>;
let receiver: RunningReceiver;

beforeAll(async () => {
  temp = tempDir();
  receiver = await startReceiver({
    host: '127.0.0.1',
    port: 0,
    authorization: AUTH,
    maxBodyBytes: 1_048_576,
    journalDir: join(temp.dir, 'journal'),
    warehousePath: join(temp.dir, 'warehouse.duckdb'),
    logger: capturedLogger('info').logger,
    mergeIntervalMs: 50,
  });
});
afterAll(async () => {
  await receiver?.close();
  temp?.cleanup();
});

/** `2026-01-02T03:04:05.123456+00:00` → `2026-01-02T03:04:05Z` (what readTables prints). */
const toSecondsZ = (iso: string): string => `${iso.slice(0, 19)}Z`;

describe("the simulator's event sender", () => {
  it('delivers duplicates and shuffled events; the warehouse ends in its expected state', async () => {
    const { stats, expected } = await sendEvents({
      receiverBaseUrl: receiver.url,
      authorization: AUTH,
      seed: 11,
      count: 300,
      duplicates: 0.3,
      outOfOrder: true,
      concurrency: 8,
    });
    expect(stats.sent).toBe(390); // 300 events, 90 of them twice
    expect(stats.failed).toBe(0);
    expect(stats.acknowledged).toBe(stats.sent);
    const merge = await receiver.mergeNow();
    expect(merge.status).toBe('merged');
    const tables = await readTables(join(temp.dir, 'warehouse.duckdb'));

    expect(tables.events.map((e) => e.event_id)).toEqual(expected.eventIds);
    expect(tables.users).toEqual(
      expected.users.map((u) => ({
        user_id: u.id,
        email: u.email,
        email_confirmed: u['email-confirmed'],
        first_name: u['first-name'],
        last_name: u['last-name'],
        phone: u.phone,
        phone_confirmed: u['phone-confirmed'],
        language: u.language,
        birth_date: u['birth-date'],
        gender: u.gender,
        is_subscribed: u['is-subscribed'],
      })),
    );
    expect(tables.venues.map((v) => [v.venue_id, v.name, v.address, v.city, v.country])).toEqual(
      expected.venues.map((v) => [v.id, v.name, v.address, v.city, v.country]),
    );
    expect(tables.history).toEqual(
      expected.history.map((h) => ({
        user_id: h.userId,
        venue_id: h.venueId,
        visits_count: h.visitsCount,
        first_visit_on: toSecondsZ(h.firstVisitOn),
        last_visit_on: toSecondsZ(h.lastVisitOn),
      })),
    );
    const agreementKey = (a: { user: string; venue: string; at: string }): string => `${a.user}|${a.venue}|${a.at}`;
    expect(
      tables.agreements
        .map((a) => ({ key: agreementKey({ user: String(a.user_id), venue: String(a.venue_id), at: String(a.accepted_date) }), texts: a.texts }))
        .sort((a, b) => (a.key < b.key ? -1 : 1)),
    ).toEqual(
      expected.agreements
        .map((a) => ({ key: agreementKey({ user: a.userId, venue: a.venueId, at: toSecondsZ(a.acceptedDate) }), texts: [...a.texts] }))
        .sort((a, b) => (a.key < b.key ? -1 : 1)),
    );
  });
});
