import { draw, pick, unit } from '../hash.js';
import { uuidFrom } from '../uuid.js';
import { DAY_MS, dateToDays, daysToDate } from '../../calendar/index.js';
import { isoWithOffset } from '../dates.js';
import { FIRST_NAMES, LAST_NAMES, PLACES, STREETS, VENUE_KINDS, VENUE_ADJECTIVES, PROJECT_NAMES, LANGUAGES, PHONE_PREFIXES, GENDERS } from './names.js';

export interface Project {
  readonly id: string;
  readonly name: string;
  readonly venueIds: readonly string[];
}

/** Venue fields as the upsert event (docs/api.md §6) carries them. */
export interface Venue {
  readonly id: string;
  readonly projectId: string;
  readonly name: string;
  readonly address: string;
  readonly city: string;
  readonly country: string;
  /** ISO 8601 with microseconds and offset. */
  readonly createdAt: string;
}

/** An account of the venue platform (docs/api.md §2.3): who holds roles and calls the API. */
export interface Account {
  readonly id: string;
  readonly email: string;
  readonly fullName: string;
  readonly confirmedAt: string;
  readonly language: string;
  readonly rolesNames: readonly string[];
  readonly tags: readonly string[];
  readonly createdById: string | null;
}

/** A Wi-Fi guest: the `user` of the upsert events (docs/api.md §6). */
export interface WifiUser {
  readonly id: string;
  readonly email: string;
  readonly emailConfirmed: boolean;
  readonly firstName: string;
  readonly lastName: string;
  readonly phone: string;
  readonly phoneConfirmed: boolean;
  readonly language: string;
  readonly birthDate: string;
  readonly gender: string;
  readonly isSubscribed: boolean;
}

/** Everything that exists in a simulated world. Plain data: it serialises as is (`/__sim/world`). */
export interface World {
  readonly seed: number;
  /** `YYYY-MM-DD` (UTC): no data exists after it. */
  readonly today: string;
  /** First day with activity; earlier days serve zeros. */
  readonly historyStart: string;
  readonly days: number;
  readonly projects: readonly Project[];
  readonly venues: readonly Venue[];
  /** Every account, `me` first. */
  readonly accounts: readonly Account[];
  /** The account the token belongs to (`/accounts/filtered-accounts/me/`). */
  readonly me: Account;
  readonly users: readonly WifiUser[];
}

export interface WorldParameters {
  readonly seed: number;
  readonly venues: number;
  readonly days: number;
  readonly today: string;
}

const VENUES_PER_PROJECT = 3;

export function buildWorld({ seed, venues: venueCount, days, today }: WorldParameters): World {
  const h = (label: string, index: number): number => draw(seed, label, index);
  const historyStartDay = dateToDays(today) - (days - 1);

  const projectCount = Math.ceil(venueCount / VENUES_PER_PROJECT);
  const projectIds = Array.from({ length: projectCount }, (_, p) => uuidFrom(seed, 'project', p));
  const venues: Venue[] = Array.from({ length: venueCount }, (_, v) => {
    const place = pick(PLACES, h('venue-place', v));
    const createdMs = (historyStartDay - 30 - (h('venue-created', v) % 700)) * DAY_MS + (h('venue-created-ms', v) % DAY_MS);
    return {
      id: uuidFrom(seed, 'venue', v),
      projectId: projectIds[Math.floor(v / VENUES_PER_PROJECT)] as string,
      name: `${pick(VENUE_ADJECTIVES, h('venue-adjective', v))} ${pick(VENUE_KINDS, h('venue-kind', v))} ${place.city}`,
      address: `${pick(STREETS, h('venue-street', v))} ${1 + (h('venue-number', v) % 120)}`,
      city: place.city,
      country: place.country,
      createdAt: isoWithOffset(createdMs, h('venue-created-us', v) % 1_000_000),
    };
  });
  const projects: Project[] = projectIds.map((id, p) => ({
    id,
    name: `${pick(PROJECT_NAMES, h('project-name', p))} ${p + 1}`,
    venueIds: venues.filter((venue) => venue.projectId === id).map((venue) => venue.id),
  }));

  // `me` plus two accounts per project: enough holders for owner/reader roles at both levels.
  const accountCount = Math.max(4, 2 + projectCount * 2);
  const accountIds = Array.from({ length: accountCount }, (_, a) => uuidFrom(seed, 'account', a));
  const accounts: Account[] = accountIds.map((id, a) => {
    const first = pick(FIRST_NAMES, h('account-first', a));
    const last = pick(LAST_NAMES, h('account-last', a));
    const confirmedMs = (historyStartDay - 800 + (h('account-confirmed', a) % 700)) * DAY_MS + (h('account-confirmed-ms', a) % DAY_MS);
    return {
      id,
      email: `${first}.${last}.${a}@example.com`.toLowerCase(),
      fullName: `${first} ${last}`,
      confirmedAt: isoWithOffset(confirmedMs),
      language: pick(LANGUAGES, h('account-language', a)),
      rolesNames: a === 0 ? ['STANDARD', 'ADMIN'] : unit(h('account-admin', a)) < 0.2 ? ['STANDARD', 'ADMIN'] : ['STANDARD'],
      tags: [],
      // The first account was created by nobody (sign-up); later ones mostly by an earlier account.
      createdById: a === 0 || unit(h('account-created-by', a)) < 0.25 ? null : (accountIds[h('account-creator', a) % a] as string),
    };
  });

  const userCount = Math.max(10, venueCount * 6);
  const users: WifiUser[] = Array.from({ length: userCount }, (_, u) => {
    const first = pick(FIRST_NAMES, h('user-first', u));
    const last = pick(LAST_NAMES, h('user-last', u));
    const birthDay = dateToDays('1950-01-01') + (h('user-birth', u) % (365 * 50));
    return {
      id: uuidFrom(seed, 'wifi-user', u),
      email: `${first}.${last}.guest${u}@example.net`.toLowerCase(),
      emailConfirmed: unit(h('user-email-confirmed', u)) < 0.7,
      firstName: first,
      lastName: last,
      phone: `${pick(PHONE_PREFIXES, h('user-phone-prefix', u))}${String(500_000_000 + (h('user-phone', u) % 499_999_999))}`,
      phoneConfirmed: unit(h('user-phone-confirmed', u)) < 0.5,
      language: pick(LANGUAGES, h('user-language', u)),
      birthDate: daysToDate(birthDay),
      gender: pick(GENDERS, h('user-gender', u)),
      isSubscribed: unit(h('user-subscribed', u)) < 0.4,
    };
  });

  return {
    seed,
    today,
    historyStart: daysToDate(historyStartDay),
    days,
    projects,
    venues,
    accounts,
    me: accounts[0] as Account,
    users,
  };
}
