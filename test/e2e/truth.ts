/**
 * What the warehouse should hold, from the simulator's ground truth, and the same facts read
 * back from the warehouse, both as key → value maps (compared with `diffMaps`).
 */
import type { Simulator, SeriesStream, SummaryStream } from '../../src/simulator/index.js';
import { eachDay } from './harness.js';
import { queryRows } from './warehouse-reads.js';

export const SERIES: readonly SeriesStream[] = ['venue-devices-history', 'venue-users-history', 'venue-remarketing-history', 'rating-history'];
export const SUMMARIES: readonly SummaryStream[] = [
  'venue-devices-summary',
  'venue-users-login-methods',
  'venue-users-status',
  'venue-users-summary',
  'rating-summary',
];
export const RATING_STATISTICS = 'rating-statistics-summaries';
/** Every summary-kind stream (the five above plus the rating statistics list). */
export const SUMMARY_KIND: readonly string[] = [...SUMMARIES, RATING_STATISTICS];

const seriesKey = (venue: string, stream: string, metric: string, granularity: string, ms: number): string =>
  `${venue}|${stream}|${metric}|${granularity}|${new Date(ms).toISOString()}`;
const summaryKey = (venue: string, stream: string, metric: string, start: string, end: string): string => `${venue}|${stream}|${metric}|${start}|${end}`;

export interface Range {
  readonly venues: readonly string[];
  readonly streams: readonly string[];
  readonly from: string;
  readonly to: string;
}

/** Daily points of [from, to] (more than one day: the API answers with one point per day). */
export function expectedSeries(sim: Simulator, range: Range): Map<string, number | null> {
  const expected = new Map<string, number | null>();
  for (const venue of range.venues) {
    for (const stream of range.streams.filter((s): s is SeriesStream => (SERIES as readonly string[]).includes(s))) {
      const truth = sim.truth.series(venue, stream, range.from, range.to);
      for (const [metric, points] of Object.entries(truth.points)) {
        for (const [ts, value] of points) expected.set(seriesKey(venue, stream, metric, truth.granularity, Date.parse(ts)), value);
      }
    }
  }
  return expected;
}

/** Day-grain summaries: one period per day, `rates_per_value` pairs as `rates_per_value.N`. */
export function expectedSummaries(sim: Simulator, range: Range): Map<string, number | null> {
  const expected = new Map<string, number | null>();
  for (const venue of range.venues) {
    for (const stream of range.streams.filter((s) => SUMMARY_KIND.includes(s))) {
      for (const day of eachDay(range.from, range.to)) {
        const attributes: Readonly<Record<string, unknown>> =
          stream === RATING_STATISTICS ? { ...sim.truth.ratingStatistics(venue, day, day) } : sim.truth.summary(venue, stream as SummaryStream, day, day);
        for (const [name, value] of Object.entries(attributes)) {
          if (Array.isArray(value)) {
            for (const [key, count] of value as [number, number][]) expected.set(summaryKey(venue, stream, `${name}.${key}`, day, day), count);
          } else {
            expected.set(summaryKey(venue, stream, name, day, day), value as number | null);
          }
        }
      }
    }
  }
  return expected;
}

const inList = (values: readonly string[]): string => values.map((v) => `'${v.replace(/'/g, "''")}'`).join(', ');

export async function storedSeries(path: string, range: Range): Promise<Map<string, number | null>> {
  const rows = await queryRows(
    path,
    `SELECT venue_id::VARCHAR AS v, stream, metric, granularity AS g, epoch_ms(ts)::DOUBLE AS t, value
     FROM series_points WHERE stream IN (${inList(range.streams)}) AND venue_id::VARCHAR IN (${inList(range.venues)})
       AND ts >= '${range.from}'::DATE AND ts < '${range.to}'::DATE + 1`,
  );
  return new Map(rows.map((r) => [seriesKey(String(r.v), String(r.stream), String(r.metric), String(r.g), Number(r.t)), r.value as number | null]));
}

export async function storedSummaries(path: string, range: Range): Promise<Map<string, number | null>> {
  const rows = await queryRows(
    path,
    `SELECT venue_id::VARCHAR AS v, stream, metric, strftime(period_start, '%Y-%m-%d') AS s, strftime(period_end, '%Y-%m-%d') AS e, value
     FROM summary_values WHERE stream IN (${inList(range.streams)}) AND venue_id::VARCHAR IN (${inList(range.venues)})
       AND period_start BETWEEN '${range.from}'::DATE AND '${range.to}'::DATE`,
  );
  return new Map(rows.map((r) => [summaryKey(String(r.v), String(r.stream), String(r.metric), String(r.s), String(r.e)), r.value as number | null]));
}

interface RoleResourceLike {
  readonly id: string;
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly relationships?: Readonly<Record<string, { data: { id: string } }>>;
}

export interface RoleFacts {
  readonly account: string;
  readonly name: string;
  readonly inheritedFrom: string | null;
  readonly permissions: readonly string[];
}

/** Current roles per `scope|role`: the venues' lists (own and inherited) and the projects' lists. */
export function expectedRoles(
  sim: Simulator,
  venues: readonly string[],
  projects: readonly string[],
): { venue: Map<string, RoleFacts>; project: Map<string, RoleFacts> } {
  const facts = (resource: RoleResourceLike, inherited: boolean): RoleFacts => {
    const from = resource.attributes['inherited-from'];
    return {
      account: resource.relationships!.account!.data.id,
      name: String(resource.attributes.name),
      inheritedFrom: inherited && typeof from === 'string' && from !== '' ? from : null,
      permissions: [...(resource.attributes.permissions as string[])].sort(),
    };
  };
  const venue = new Map<string, RoleFacts>();
  for (const id of venues) for (const role of sim.truth.venueRoles(id) as readonly RoleResourceLike[]) venue.set(`${id}|${role.id}`, facts(role, true));
  const project = new Map<string, RoleFacts>();
  for (const id of projects) for (const role of sim.truth.projectRoles(id) as readonly RoleResourceLike[]) project.set(`${id}|${role.id}`, facts(role, false));
  return { venue, project };
}

export async function storedRoles(path: string): Promise<{ venue: Map<string, RoleFacts>; project: Map<string, RoleFacts> }> {
  const venueRows = await queryRows(
    path,
    `SELECT venue_id::VARCHAR AS s, role_id::VARCHAR AS r, account_id::VARCHAR AS a, name, inherited_from, permissions FROM current_venue_roles`,
  );
  const projectRows = await queryRows(
    path,
    `SELECT project_id::VARCHAR AS s, role_id::VARCHAR AS r, account_id::VARCHAR AS a, name, NULL AS inherited_from, permissions FROM current_project_roles`,
  );
  const toMap = (rows: readonly Record<string, unknown>[]) =>
    new Map(
      rows.map((row) => [
        `${row.s}|${row.r}`,
        {
          account: String(row.a),
          name: String(row.name),
          inheritedFrom: (row.inherited_from as string | null) ?? null,
          permissions: [...(row.permissions as string[])].sort(),
        },
      ]),
    );
  return { venue: toMap(venueRows), project: toMap(projectRows) };
}

export interface AccountFacts {
  readonly email: string;
  readonly fullName: string;
  readonly confirmedAtMs: number | null;
  readonly language: string;
  readonly rolesNames: readonly string[];
  readonly tags: readonly unknown[];
  readonly createdById: string | null;
  readonly isMe: boolean;
}

/** The accounts the given current roles point to, plus `me`, as the API describes them. */
export function expectedAccounts(sim: Simulator, accountIds: Iterable<string>): Map<string, AccountFacts> {
  const me = String(sim.truth.account('me').id);
  const ids = new Set([...accountIds, me]);
  const expected = new Map<string, AccountFacts>();
  for (const resource of sim.truth.accounts([...ids])) {
    const a = resource.attributes as Record<string, unknown>;
    expected.set(String(resource.id), {
      email: String(a.email),
      fullName: String(a['full-name']),
      confirmedAtMs: a['confirmed-at'] === null ? null : Date.parse(String(a['confirmed-at'])),
      language: String(a.language),
      rolesNames: a['roles-names'] as string[],
      tags: a.tags as unknown[],
      createdById: (a['created-by-id'] as string | null) ?? null,
      isMe: resource.id === me,
    });
  }
  return expected;
}

export async function storedAccounts(path: string): Promise<Map<string, AccountFacts>> {
  const rows = await queryRows(
    path,
    `SELECT account_id::VARCHAR AS id, email, full_name, epoch_ms(confirmed_at)::DOUBLE AS confirmed_ms, language, roles_names,
       tags::VARCHAR AS tags, created_by_id, is_me FROM accounts`,
  );
  return new Map(
    rows.map((r) => [
      String(r.id),
      {
        email: String(r.email),
        fullName: String(r.full_name),
        confirmedAtMs: r.confirmed_ms === null ? null : Number(r.confirmed_ms),
        language: String(r.language),
        rolesNames: r.roles_names as string[],
        tags: JSON.parse(String(r.tags)) as unknown[],
        createdById: (r.created_by_id as string | null) ?? null,
        isMe: r.is_me === true,
      },
    ]),
  );
}
