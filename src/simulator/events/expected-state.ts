import type { UpsertBody, UpsertEvent } from './upsert-event.js';

export interface ExpectedHistory {
  readonly userId: string;
  readonly venueId: string;
  readonly visitsCount: number;
  readonly firstVisitOn: string;
  readonly lastVisitOn: string;
}

export interface ExpectedAgreement {
  readonly userId: string;
  readonly venueId: string;
  readonly acceptedDate: string;
  readonly texts: readonly string[];
}

/** What a receiver should hold after all events arrived, in any order, any number of times. */
export interface ExpectedState {
  /** Distinct event ids (SHA-256 of the body), sorted. */
  readonly eventIds: readonly string[];
  /** One per user id, sorted by id (user fields do not change between events). */
  readonly users: readonly UpsertBody['data']['user'][];
  readonly venues: readonly UpsertBody['data']['venue'][];
  /** Per user and venue: the largest visits-count and last-visit-on, the earliest first-visit-on. */
  readonly history: readonly ExpectedHistory[];
  /** Per user, venue and accepted-date. */
  readonly agreements: readonly ExpectedAgreement[];
}

const byKey = <T>(map: Map<string, T>): T[] => [...map.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
// Timestamps all carry +00:00 and the same precision, so they order as strings.
const later = (a: string, b: string): string => (a > b ? a : b);
const earlier = (a: string, b: string): string => (a < b ? a : b);

export function expectedFinalState(events: readonly UpsertEvent[]): ExpectedState {
  const users = new Map<string, UpsertBody['data']['user']>();
  const venues = new Map<string, UpsertBody['data']['venue']>();
  const history = new Map<string, ExpectedHistory>();
  const agreements = new Map<string, ExpectedAgreement>();
  for (const { body, userId, venueId } of events) {
    const { user, venue, 'user-venue-history': visits, 'user-venue-agreements': agreement } = body.data;
    users.set(userId, user);
    venues.set(venueId, venue);
    const key = `${userId}|${venueId}`;
    const before = history.get(key);
    history.set(key, {
      userId,
      venueId,
      visitsCount: Math.max(before?.visitsCount ?? 0, visits['visits-count']),
      firstVisitOn: before ? earlier(before.firstVisitOn, visits['first-visit-on']) : visits['first-visit-on'],
      lastVisitOn: before ? later(before.lastVisitOn, visits['last-visit-on']) : visits['last-visit-on'],
    });
    agreements.set(`${key}|${agreement['accepted-date']}`, { userId, venueId, acceptedDate: agreement['accepted-date'], texts: agreement.texts });
  }
  return {
    eventIds: [...new Set(events.map((e) => e.id))].sort(),
    users: byKey(users),
    venues: byKey(venues),
    history: byKey(history),
    agreements: byKey(agreements),
  };
}
