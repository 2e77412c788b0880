import type { HistoryRow } from '../warehouse/index.js';
import type { JournaledEvent } from './journaled-event.js';
import { compareInstants, instantIso, parseInstant, type Instant } from './timestamps.js';

interface Aggregate {
  visits: number | null;
  first: Instant | undefined;
  last: Instant | undefined;
}

/**
 * Folds a batch's visit histories per user and venue: the largest visits-count and
 * last-visit-on, the earliest first-visit-on. The warehouse applies the same rule against the
 * stored row (greatest / least), so late or repeated events never move anything backwards.
 * Events without `user-venue-history` contribute nothing.
 */
export function historyRows(events: readonly JournaledEvent[]): HistoryRow[] {
  const pairs = new Map<string, { userId: string; venueId: string; aggregate: Aggregate }>();
  for (const { event } of events) {
    const history = event.data['user-venue-history'];
    if (!history) continue;
    const userId = event.data.user.id.toLowerCase();
    const venueId = event.data.venue.id.toLowerCase();
    const key = `${userId}|${venueId}`;
    let pair = pairs.get(key);
    if (!pair) {
      pair = { userId, venueId, aggregate: { visits: null, first: undefined, last: undefined } };
      pairs.set(key, pair);
    }
    const aggregate = pair.aggregate;
    const visits = history['visits-count'];
    if (visits !== undefined && visits !== null) aggregate.visits = Math.max(aggregate.visits ?? visits, visits);
    aggregate.first = earlier(aggregate.first, instant(history['first-visit-on']));
    aggregate.last = later(aggregate.last, instant(history['last-visit-on']));
  }
  return [...pairs.values()].map(({ userId, venueId, aggregate }) => ({
    user_id: userId,
    venue_id: venueId,
    visits_count: aggregate.visits,
    first_visit_on: aggregate.first ? instantIso(aggregate.first) : null,
    last_visit_on: aggregate.last ? instantIso(aggregate.last) : null,
  }));
}

function instant(value: string | null | undefined): Instant | undefined {
  return value ? parseInstant(value) : undefined;
}

function earlier(a: Instant | undefined, b: Instant | undefined): Instant | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return compareInstants(b, a) < 0 ? b : a;
}

function later(a: Instant | undefined, b: Instant | undefined): Instant | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return compareInstants(b, a) > 0 ? b : a;
}
