import { dateToDays } from '../../calendar/index.js';
import { hourTimestamp } from '../dates.js';
import { relationship, type Resource } from '../jsonapi.js';
import { dayValues, type DayValues } from '../metrics/day-values.js';
import { hoursOf, type HourValues } from '../metrics/hour-values.js';
import { revisionOfDay } from '../metrics/revision.js';
import { venueProfile, type VenueProfile } from '../metrics/venue-profile.js';
import { uuidFrom } from '../uuid.js';
import type { RoleBook } from '../world/role-book.js';
import type { WorldIndex } from '../world/world-index.js';
import { accountResource } from './accounts.js';
import { inheritedVenueRoleResource, projectRoleResource, venueRoleResource } from './roles.js';
import { seriesOf, type SeriesTruth } from './series.js';
import { resourceType, type SeriesStream, type SummaryStream } from './streams.js';
import { ratingStatisticsOf, summaryOf, type RatingStatistics } from './summaries.js';

/**
 * What the simulator serves, as functions: the HTTP handlers are thin wrappers around these,
 * so a test comparing an extraction against them compares against exactly what was served
 * (at the current revision and role state). Unknown ids raise UnknownEntityError.
 */
export interface GroundTruth {
  /** The revision epoch (bumped by `revise()`). */
  readonly revision: number;
  /** History points; from/to are `YYYY-MM-DD`, from == to gives hourly points. */
  series(venueId: string, stream: SeriesStream, from: string, to: string): SeriesTruth;
  /** Summary attributes; a missing bound means the start of the history / today. */
  summary(venueId: string, stream: SummaryStream, from?: string, to?: string): Readonly<Record<string, unknown>>;
  ratingStatistics(venueId: string, from?: string, to?: string): RatingStatistics;
  /** The venue's own roles followed by the roles it inherits from its project. */
  venueRoles(venueId: string): readonly Resource[];
  projectRoles(projectId: string): readonly Resource[];
  /** One account (`me` accepted). */
  account(id: string): Resource;
  /** Accounts in world order; with ids, only those that exist (unknown ids are absent). */
  accounts(ids?: readonly string[]): readonly Resource[];
  /** The raw daily model behind every endpoint (for invariant checks). */
  day(venueId: string, date: string): DayValues;
  /** The raw hourly model of one day. */
  hours(venueId: string, date: string): readonly HourValues[];
  seriesResource(venueId: string, stream: SeriesStream, from: string, to: string): Resource;
  summaryResource(venueId: string, stream: SummaryStream, from?: string, to?: string): Resource;
  ratingStatisticsResource(venueId: string, from?: string, to?: string): Resource;
}

export interface TruthSources {
  readonly index: WorldIndex;
  readonly roles: RoleBook;
  /** Current revision epoch. */
  readonly epoch: () => number;
  /** Days before today whose values follow the epoch (0: data is never revised). */
  readonly recentDays: number;
}

// DayValues of recently asked days: an extraction asks for the same windows over and over.
// About 300 bytes each: 100 venues × 3 years fit.
const CACHE_LIMIT = 120_000;

export function createGroundTruth(sources: TruthSources): GroundTruth {
  const { index, roles, epoch } = sources;
  const world = index.world;
  const todayDay = dateToDays(world.today);
  const { profileOf, revisionOf, dayOf, daysOf } = dayBook(sources);

  const truth: GroundTruth = {
    get revision() {
      return epoch();
    },
    series(venueId, stream, from, to) {
      // A one-day range is served hour by hour (docs/api.md §4.1: daily, or hourly).
      if (from === to) {
        const day = dateToDays(from);
        const hours = day > todayDay ? [] : truth.hours(venueId, from);
        return seriesOf(
          stream,
          hours.map((values, hour) => [hourTimestamp(day, hour), values] as const),
          'hour',
        );
      }
      return seriesOf(
        stream,
        daysOf(venueId, from, to, false).map((values) => [hourTimestamp(values.day, 0), values] as const),
        'day',
      );
    },
    summary: (venueId, stream, from, to) => summaryOf(stream, daysOf(venueId, from, to, true)),
    ratingStatistics: (venueId, from, to) => ratingStatisticsOf(daysOf(venueId, from, to, true)),
    venueRoles(venueId) {
      const venue = index.venue(venueId);
      return [
        ...roles.venueOwnRoles(venueId).map(venueRoleResource),
        ...roles.projectRoles(venue.projectId).map((role) => inheritedVenueRoleResource(world.seed, role, venueId)),
      ];
    },
    projectRoles(projectId) {
      index.project(projectId);
      return roles.projectRoles(projectId).map(projectRoleResource);
    },
    account: (id) => accountResource(index.account(id)),
    accounts(ids) {
      if (ids === undefined) return world.accounts.map(accountResource);
      const wanted = new Set(ids);
      return world.accounts.filter((account) => wanted.has(account.id)).map(accountResource);
    },
    day: (venueId, date) => dayOf(venueId, dateToDays(date)),
    hours: (venueId, date) => hoursOf(profileOf(venueId), dateToDays(date), revisionOf(dateToDays(date))),
    seriesResource: (venueId, stream, from, to) => ({
      type: resourceType(stream),
      id: uuidFrom(world.seed, stream, venueId, from, to),
      attributes: truth.series(venueId, stream, from, to).points,
    }),
    summaryResource: (venueId, stream, from, to) => ({
      type: resourceType(stream),
      id: uuidFrom(world.seed, stream, venueId, from ?? '', to ?? ''),
      attributes: truth.summary(venueId, stream, from, to),
    }),
    ratingStatisticsResource: (venueId, from, to) => ({
      type: 'rating-statistics-summary',
      id: uuidFrom(world.seed, 'rating-statistics-summary', venueId, from ?? '', to ?? ''),
      attributes: { ...truth.ratingStatistics(venueId, from, to) },
      relationships: { venue: relationship('venues', venueId) },
    }),
  };
  return truth;
}

/** Each venue's profile and its days' values, cached: what every figure of the truth is made of. */
function dayBook({ index, epoch, recentDays }: TruthSources) {
  const world = index.world;
  const todayDay = dateToDays(world.today);
  const startDay = dateToDays(world.historyStart);
  const profiles = new Map<string, VenueProfile>();
  const cache = new Map<string, DayValues>();

  const profileOf = (venueId: string): VenueProfile => {
    let profile = profiles.get(venueId);
    if (!profile) {
      index.venue(venueId);
      profile = venueProfile(world.seed, venueId, startDay);
      profiles.set(venueId, profile);
    }
    return profile;
  };

  const revisionOf = (day: number): number => revisionOfDay(day, todayDay, recentDays, epoch());
  const dayOf = (venueId: string, day: number): DayValues => {
    const revision = revisionOf(day);
    const key = `${venueId}|${day}|${revision}`;
    let values = cache.get(key);
    if (!values) {
      values = dayValues(profileOf(venueId), day, revision);
      if (cache.size >= CACHE_LIMIT) cache.clear();
      cache.set(key, values);
    }
    return values;
  };

  /** The range's days up to today; `skipBeforeStart` drops the all-zero days of summaries. */
  const daysOf = (venueId: string, from: string | undefined, to: string | undefined, skipBeforeStart: boolean): DayValues[] => {
    profileOf(venueId);
    let first = from === undefined ? startDay : dateToDays(from);
    if (skipBeforeStart) first = Math.max(first, startDay);
    const last = Math.min(to === undefined ? todayDay : dateToDays(to), todayDay);
    const days: DayValues[] = [];
    for (let day = first; day <= last; day += 1) days.push(dayOf(venueId, day));
    return days;
  };
  return { profileOf, revisionOf, dayOf, daysOf };
}
