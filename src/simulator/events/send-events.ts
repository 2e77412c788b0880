import { setTimeout as delay } from 'node:timers/promises';
import { request } from 'undici';
import { draw, unit } from '../hash.js';
import { resolveOptions } from '../options.js';
import { buildWorld, type World } from '../world/world.js';
import { expectedFinalState, type ExpectedState } from './expected-state.js';
import { backoffMs, isRetryableStatus, retryAfterMs } from './retry-delay.js';
import { generateEvents, type UpsertEvent } from './upsert-event.js';

export const EVENTS_USER_AGENT = 'venue-simulator/1.0';

export interface SendEventsOptions {
  /** The receiver's base URL; events go to `{receiverBaseUrl}/users/`. */
  readonly receiverBaseUrl: string;
  /** The complete `Authorization` header value, e.g. `Basic …`. */
  readonly authorization: string;
  /** The world the events come from (a simulator's `world`); default: the world of `seed`. */
  readonly world?: World;
  readonly seed?: number;
  /** Distinct events. Default 20. */
  readonly count?: number;
  /** Deliveries in flight at once. Default 4. */
  readonly concurrency?: number;
  /** Fraction of events delivered a second time, byte for byte. Default 0. */
  readonly duplicates?: number;
  /** Shuffle the deliveries (seeded) instead of sending in event order. Default false. */
  readonly outOfOrder?: boolean;
  /** Attempts per delivery, the first included. Default 5. */
  readonly maxAttempts?: number;
  /** First backoff step; doubles per attempt up to `maxBackoffMs`. Defaults 100 / 5000. */
  readonly baseBackoffMs?: number;
  readonly maxBackoffMs?: number;
  /** Per attempt. Default 10 000. */
  readonly timeoutMs?: number;
  /** No retry starts (or waits) past this many ms after the start. Default 60 000. */
  readonly deadlineMs?: number;
  readonly signal?: AbortSignal;
}

export interface SendEventsStats {
  /** Deliveries attempted (distinct events plus duplicates). */
  readonly sent: number;
  /** Deliveries finally answered 2xx. */
  readonly acknowledged: number;
  /** Attempts after the first, over all deliveries. */
  readonly retried: number;
  /** Deliveries given up (non-retryable answer, attempts or time exhausted). */
  readonly failed: number;
  /** Answers per status over all attempts; `network` for connection errors and timeouts. */
  readonly statuses: Readonly<Record<string, number>>;
}

export interface SendEventsResult {
  readonly stats: SendEventsStats;
  /** The distinct events, in generation order. */
  readonly events: readonly UpsertEvent[];
  /** What the receiver should hold afterwards (if every delivery was acknowledged). */
  readonly expected: ExpectedState;
  /** Ids of the events with at least one delivery answered 2xx: what the receiver must keep. */
  readonly acknowledgedIds: ReadonlySet<string>;
}

/**
 * The upstream's outbound upsert events (docs/api.md §6): POSTs to the receiver, with duplicates,
 * shuffled order and concurrency as a real sender may produce, retrying network errors, 408,
 * 425, 429 and 5xx with backoff that honours Retry-After. Other 4xx answers are final.
 */
export async function sendEvents(options: SendEventsOptions): Promise<SendEventsResult> {
  const world = options.world ?? buildWorld(resolveOptions(options.seed === undefined ? {} : { seed: options.seed }));
  const events = generateEvents(world, options.count ?? 20);
  const order = deliveryOrder(world.seed, events.length, options.duplicates ?? 0, options.outOfOrder ?? false);
  const url = `${options.receiverBaseUrl.replace(/\/+$/, '')}/users/`;
  const deadline = Date.now() + (options.deadlineMs ?? 60_000);
  const maxAttempts = options.maxAttempts ?? 5;
  const statuses: Record<string, number> = {};
  const count = (key: string): void => {
    statuses[key] = (statuses[key] ?? 0) + 1;
  };
  let sent = 0;
  let acknowledged = 0;
  let retried = 0;
  let failed = 0;
  const acknowledgedIds = new Set<string>();

  const deliver = async (event: UpsertEvent, delivery: number): Promise<void> => {
    sent += 1;
    for (let attempt = 1; ; attempt += 1) {
      let wait: number | undefined;
      try {
        const response = await request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: options.authorization, 'user-agent': EVENTS_USER_AGENT },
          body: event.json,
          headersTimeout: options.timeoutMs ?? 10_000,
          bodyTimeout: options.timeoutMs ?? 10_000,
          ...(options.signal ? { signal: options.signal } : {}),
        });
        await response.body.dump();
        count(String(response.statusCode));
        if (response.statusCode >= 200 && response.statusCode < 300) {
          acknowledged += 1;
          acknowledgedIds.add(event.id);
          return;
        }
        if (!isRetryableStatus(response.statusCode)) break;
        wait = retryAfterMs(response.headers['retry-after']);
      } catch {
        if (options.signal?.aborted) break;
        count('network');
      }
      wait ??= backoffMs(attempt, options.baseBackoffMs ?? 100, options.maxBackoffMs ?? 5000, unit(draw(world.seed, 'backoff-jitter', delivery, attempt)));
      if (attempt >= maxAttempts || Date.now() + wait > deadline) break;
      retried += 1;
      try {
        await delay(wait, undefined, options.signal ? { signal: options.signal } : {});
      } catch {
        break;
      }
    }
    failed += 1;
  };

  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < order.length && !options.signal?.aborted) {
      const delivery = next;
      next += 1;
      await deliver(events[order[delivery] as number] as UpsertEvent, delivery);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency ?? 4) }, worker));
  return { stats: { sent, acknowledged, retried, failed, statuses }, events, expected: expectedFinalState(events), acknowledgedIds };
}

/**
 * Event indices in the order they are delivered: each event once, plus `duplicates` of them a
 * second time (right after the original, or anywhere when shuffled).
 */
export function deliveryOrder(seed: number, count: number, duplicates: number, outOfOrder: boolean): number[] {
  const h = (label: string, i: number): number => draw(seed, label, i);
  const order = Array.from({ length: count }, (_, i) => i);
  const extra = count === 0 ? 0 : Math.round(count * Math.min(1, Math.max(0, duplicates)));
  for (let j = 0; j < extra; j += 1) order.push(h('duplicate', j) % count);
  if (!outOfOrder) return order.sort((a, b) => a - b);
  for (let i = order.length - 1; i > 0; i -= 1) {
    const k = h('shuffle', i) % (i + 1);
    [order[i], order[k]] = [order[k] as number, order[i] as number];
  }
  return order;
}
