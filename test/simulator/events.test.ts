import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { buildWorld, deliveryOrder, expectedFinalState, generateEvents, sendEvents, type UpsertBody, type UpsertEvent } from '../../src/simulator/index.js';
import { TODAY, UUID } from './helpers.js';

interface Delivery {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

type Behaviour = (delivery: Delivery, attempt: number, res: ServerResponse) => void;

const receivers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(receivers.splice(0).map((close) => close()));
});

/** A tiny receiver: records every delivery; `behaviour` answers (200 by default). */
async function receiver(behaviour: Behaviour = (_d, _a, res) => res.writeHead(200).end('{}')): Promise<{ url: string; deliveries: Delivery[] }> {
  const deliveries: Delivery[] = [];
  const attempts = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const delivery = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      deliveries.push(delivery);
      const attempt = (attempts.get(delivery.body) ?? 0) + 1;
      attempts.set(delivery.body, attempt);
      behaviour(delivery, attempt, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receivers.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, deliveries };
}

const world = buildWorld({ seed: 4, venues: 4, days: 60, today: TODAY });
const AUTH = 'Basic dXNlcjpzZWNyZXQ=';

describe('upsert events (docs/api.md §6)', () => {
  it('are deterministic, well formed and grow visits per user and venue', () => {
    const events = generateEvents(world, 60);
    expect(generateEvents(world, 60)).toEqual(events);
    const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{6})?\+00:00$/;
    const last = new Map<string, UpsertBody['data']['user-venue-history']>();
    for (const event of events) {
      const { user, venue, 'user-venue-history': history, 'user-venue-agreements': agreements } = event.body.data;
      expect(user.id).toMatch(UUID);
      expect(user.email).toMatch(/^[^@]+@[^@]+\.[a-z]+$/);
      expect(typeof user['email-confirmed']).toBe('boolean');
      expect(typeof user['phone-confirmed']).toBe('boolean');
      expect(typeof user['is-subscribed']).toBe('boolean');
      expect(user.phone).toMatch(/^\+\d{8,15}$/);
      expect(user['birth-date']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(Object.keys(user).sort()).toEqual([
        'birth-date',
        'email',
        'email-confirmed',
        'first-name',
        'gender',
        'id',
        'is-subscribed',
        'language',
        'last-name',
        'phone',
        'phone-confirmed',
      ]);
      expect(Object.keys(venue).sort()).toEqual(['address', 'city', 'country', 'created-at', 'id', 'name']);
      expect(venue['created-at']).toMatch(/\.\d{6}\+00:00$/);
      expect(history['first-visit-on']).toMatch(ISO);
      expect(history['last-visit-on'] >= history['first-visit-on']).toBe(true);
      expect(agreements['accepted-date']).toMatch(ISO);
      expect(agreements.texts.length).toBeGreaterThan(0);
      const key = `${user.id}|${venue.id}`;
      const before = last.get(key);
      if (before) {
        expect(history['visits-count']).toBeGreaterThan(before['visits-count']);
        expect(history['last-visit-on'] > before['last-visit-on']).toBe(true);
        expect(history['first-visit-on']).toBe(before['first-visit-on']);
      }
      last.set(key, history);
    }
    expect(last.size).toBeLessThan(events.length); // some pairs come back
  });

  it('are delivered with the right request, duplicates and shuffling included', async () => {
    const { url, deliveries } = await receiver();
    const result = await sendEvents({ receiverBaseUrl: `${url}/`, authorization: AUTH, world, count: 30, duplicates: 0.3, outOfOrder: true, concurrency: 4 });
    expect(result.stats).toEqual({ sent: 39, acknowledged: 39, retried: 0, failed: 0, statuses: { '200': 39 } });
    expect(deliveries).toHaveLength(39);
    for (const delivery of deliveries) {
      expect(delivery.method).toBe('POST');
      expect(delivery.url).toBe('/users/');
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers.authorization).toBe(AUTH);
      expect(delivery.headers['user-agent']).toBe('venue-simulator/1.0');
    }
    const bodies = deliveries.map((d) => d.body);
    expect(new Set(bodies)).toEqual(new Set(result.events.map((e) => e.json)));
    expect([...new Set(bodies)]).not.toEqual(result.events.map((e) => e.json)); // shuffled

    // A receiver applying "max wins" to what arrived ends where the helper says.
    const received: UpsertEvent[] = bodies.map((json) => result.events.find((e) => e.json === json)!);
    expect(expectedFinalState(received)).toEqual(result.expected);
    expect(result.expected.eventIds).toHaveLength(30);
    for (const row of result.expected.history) {
      const pairEvents = result.events.filter((e) => e.userId === row.userId && e.venueId === row.venueId);
      expect(row.visitsCount).toBe(Math.max(...pairEvents.map((e) => e.body.data['user-venue-history']['visits-count'])));
      expect(row.lastVisitOn).toBe(pairEvents.at(-1)!.body.data['user-venue-history']['last-visit-on']);
    }
  });

  it('retries 503 honouring Retry-After, and network errors', async () => {
    const { url } = await receiver((_d, attempt, res) => {
      if (attempt === 1) res.writeHead(503, { 'Retry-After': '0' }).end();
      else if (attempt === 2) res.socket?.destroy();
      else res.writeHead(201).end();
    });
    const result = await sendEvents({ receiverBaseUrl: url, authorization: AUTH, world, count: 5, baseBackoffMs: 5 });
    expect(result.stats).toEqual({ sent: 5, acknowledged: 5, retried: 10, failed: 0, statuses: { '503': 5, network: 5, '201': 5 } });
  });

  it('gives up on a final 4xx at once and on endless 5xx after maxAttempts', async () => {
    const refused = await receiver((_d, _a, res) => res.writeHead(401).end());
    const rejected = await sendEvents({ receiverBaseUrl: refused.url, authorization: 'Basic wrong', world, count: 3 });
    expect(rejected.stats).toMatchObject({ sent: 3, acknowledged: 0, retried: 0, failed: 3, statuses: { '401': 3 } });

    // Three attempts each, two waits between them, then given up: counted, not timed.
    const broken = await receiver((_d, _a, res) => res.writeHead(500).end());
    const exhausted = await sendEvents({ receiverBaseUrl: broken.url, authorization: AUTH, world, count: 2, maxAttempts: 3, baseBackoffMs: 5 });
    expect(exhausted.stats).toMatchObject({ acknowledged: 0, retried: 4, failed: 2, statuses: { '500': 6 } });
  });

  it('stops retrying at the deadline rather than waiting out a long Retry-After', async () => {
    const { url } = await receiver((_d, _a, res) => res.writeHead(429, { 'Retry-After': '3600' }).end());
    const result = await sendEvents({ receiverBaseUrl: url, authorization: AUTH, world, count: 1, deadlineMs: 1000 });
    // No wait at all (`retried` counts the waits): a Retry-After past the deadline ends the delivery.
    expect(result.stats).toMatchObject({ acknowledged: 0, failed: 1, retried: 0, statuses: { '429': 1 } });
  });

  it('orders deliveries: duplicates right after their original, or shuffled', () => {
    const inOrder = deliveryOrder(1, 10, 0.2, false);
    expect(inOrder).toHaveLength(12);
    expect([...inOrder].sort((a, b) => a - b)).toEqual(inOrder);
    const shuffled = deliveryOrder(1, 10, 0.2, true);
    expect([...shuffled].sort((a, b) => a - b)).toEqual(inOrder);
    expect(shuffled).not.toEqual(inOrder);
  });
});
