import { createHash } from 'node:crypto';
import { draw, unit } from '../hash.js';
import { DAY_MS, dateToDays } from '../../calendar/index.js';
import { isoWithOffset } from '../dates.js';
import type { Venue, WifiUser, World } from '../world/world.js';

/** The body of an upsert event (docs/api.md §6), field names as the service sends them. */
export interface UpsertBody {
  readonly data: {
    readonly user: {
      readonly id: string;
      readonly email: string;
      readonly 'email-confirmed': boolean;
      readonly 'first-name': string;
      readonly 'last-name': string;
      readonly phone: string;
      readonly 'phone-confirmed': boolean;
      readonly language: string;
      readonly 'birth-date': string;
      readonly gender: string;
      readonly 'is-subscribed': boolean;
    };
    readonly venue: {
      readonly id: string;
      readonly name: string;
      readonly address: string;
      readonly city: string;
      readonly country: string;
      readonly 'created-at': string;
    };
    readonly 'user-venue-history': {
      readonly 'visits-count': number;
      readonly 'first-visit-on': string;
      readonly 'last-visit-on': string;
    };
    readonly 'user-venue-agreements': {
      readonly 'accepted-date': string;
      readonly texts: readonly string[];
    };
  };
}

export interface UpsertEvent {
  /** SHA-256 (hex) of `json`: what a receiver deduplicating by body would key on. */
  readonly id: string;
  readonly userId: string;
  readonly venueId: string;
  readonly body: UpsertBody;
  /** The exact bytes sent; a duplicate delivery re-sends these. */
  readonly json: string;
}

const TERMS = ['I accept the terms of use of the guest Wi-Fi.', 'I accept the privacy policy.'];
const TERMS_REVISED = ['I accept the terms of use of the guest Wi-Fi (revised edition).', 'I accept the privacy policy.'];
const MARKETING = 'I agree to receive marketing e-mails.';

interface PairState {
  visits: number;
  firstVisitMs: number;
  acceptedMs: number;
  revisedTerms: boolean;
}

/**
 * `count` events over the world's history, deterministic from the seed: Wi-Fi users visiting
 * venues, often the same user at the same venue again (visits-count and last-visit-on grow with
 * each later event of the pair; now and then the user accepts revised terms).
 */
export function generateEvents(world: World, count: number): UpsertEvent[] {
  const h = (label: string, i: number): number => draw(world.seed, `event-${label}`, i);
  const startMs = dateToDays(world.historyStart) * DAY_MS;
  const spanMs = Math.max(1, world.days - 1) * DAY_MS;
  const pairs = new Map<string, PairState>();
  const seenPairs: Array<readonly [WifiUser, Venue]> = [];
  const events: UpsertEvent[] = [];
  for (let i = 0; i < count; i += 1) {
    // Times grow with i, so "later event" and "later visit" agree.
    const atMs = startMs + Math.floor(((i + 0.1 + 0.8 * unit(h('time', i))) * spanMs) / count);
    const again = seenPairs.length > 0 && unit(h('again', i)) < 0.5;
    const [user, venue] = again
      ? (seenPairs[h('again-pair', i) % seenPairs.length] as readonly [WifiUser, Venue])
      : ([world.users[h('user', i) % world.users.length], world.venues[h('venue', i) % world.venues.length]] as [WifiUser, Venue]);
    const key = `${user.id}|${venue.id}`;
    let pair = pairs.get(key);
    if (!pair) {
      pair = { visits: 1 + (h('first-visits', i) % 3), firstVisitMs: atMs, acceptedMs: atMs, revisedTerms: false };
      pairs.set(key, pair);
      seenPairs.push([user, venue]);
    } else {
      pair.visits += 1 + (h('more-visits', i) % 2);
      if (unit(h('revised-terms', i)) < 0.15) {
        pair.acceptedMs = atMs;
        pair.revisedTerms = true;
      }
    }
    const texts = [...(pair.revisedTerms ? TERMS_REVISED : TERMS), ...(user.isSubscribed ? [MARKETING] : [])];
    const body: UpsertBody = {
      data: {
        user: {
          id: user.id,
          email: user.email,
          'email-confirmed': user.emailConfirmed,
          'first-name': user.firstName,
          'last-name': user.lastName,
          phone: user.phone,
          'phone-confirmed': user.phoneConfirmed,
          language: user.language,
          'birth-date': user.birthDate,
          gender: user.gender,
          'is-subscribed': user.isSubscribed,
        },
        venue: { id: venue.id, name: venue.name, address: venue.address, city: venue.city, country: venue.country, 'created-at': venue.createdAt },
        'user-venue-history': {
          'visits-count': pair.visits,
          'first-visit-on': isoWithOffset(pair.firstVisitMs),
          'last-visit-on': isoWithOffset(atMs),
        },
        'user-venue-agreements': { 'accepted-date': isoWithOffset(pair.acceptedMs), texts },
      },
    };
    const json = JSON.stringify(body);
    events.push({ id: createHash('sha256').update(json).digest('hex'), userId: user.id, venueId: venue.id, body, json });
  }
  return events;
}
