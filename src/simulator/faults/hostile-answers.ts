import type { World } from '../world/world.js';
import type { HostileFault } from './fault-spec.js';

/** Attributes that hold rates (1 to 5), not counts. */
const RATE_ATTRIBUTES: ReadonlySet<string> = new Set(['rates-average', 'average_rate']);

/**
 * `unsafe-count` sends 2^53 + 1, a number JSON can carry but a double cannot (it parses as
 * 2^53). The document holds 2^53 and the text is rewritten after serialization.
 */
const UNSAFE_IN_DOCUMENT = 2 ** 53;
const UNSAFE_IN_TEXT = '9007199254740993';

export interface HostileContext {
  readonly world: World;
  /** Path of the request: `/analytics/<stream>/<venue>/` names the venue a single resource is about. */
  readonly path: string;
  /** `±HH:MM`, for `offset`. */
  readonly utcOffset: string;
}

interface MutableRelationship {
  data: { type: string; id: string } | null;
}

interface MutableResource {
  attributes: Record<string, unknown>;
  relationships?: Record<string, MutableRelationship>;
}

interface MutableDocument {
  data?: MutableResource | MutableResource[];
  meta?: { count?: number };
}

type Point = [string, unknown];

/**
 * Applies hostile-answer kinds to a successful document (on a copy) and serializes it. Returns
 * the kinds that changed something (e.g. `empty-series` does nothing to a summary).
 */
export function applyHostile(document: unknown, kinds: readonly HostileFault[], context: HostileContext): { text: string; applied: HostileFault[] } {
  if (kinds.length === 0) return { text: JSON.stringify(document), applied: [] };
  const copy = structuredClone(document) as MutableDocument;
  const resources = copy.data === undefined ? [] : Array.isArray(copy.data) ? copy.data : [copy.data];
  const applied = kinds.filter((kind) => hostileOne(kind, copy, resources, context));
  const text = JSON.stringify(copy);
  return { text: applied.includes('unsafe-count') ? text.replace(String(UNSAFE_IN_DOCUMENT), UNSAFE_IN_TEXT) : text, applied };
}

function hostileOne(kind: HostileFault, document: MutableDocument, resources: MutableResource[], context: HostileContext): boolean {
  switch (kind) {
    case 'empty-series':
      return eachSeries(resources, (name, points, attributes) => {
        attributes[name] = [];
        return points.length > 0;
      });
    case 'short-series':
      // The last point goes: the answer ends a day (or an hour) early.
      return eachSeries(resources, (_name, points) => points.pop() !== undefined);
    case 'empty-list':
      if (!Array.isArray(document.data) || document.data.length === 0) return false;
      document.data = [];
      document.meta = { ...document.meta, count: 0 };
      return true;
    case 'wrong-scope':
      return resources.map((resource) => pointElsewhere(resource, context)).some(Boolean);
    case 'offset':
      return eachSeries(resources, (_name, points) => reoffset(points, context.utcOffset));
    case 'repeat-point':
      return repeatPoint(resources[0]);
    case 'negative-count':
      return setCount(resources[0], (value) => -(value + 1));
    case 'fractional-count':
      return setCount(resources[0], (value) => value + 0.5);
    case 'huge-count':
      return setCount(resources[0], () => 1e308);
    case 'unsafe-count':
      return setCount(resources[0], () => UNSAFE_IN_DOCUMENT);
    case 'rate-high':
      return setRate(resources[0], 7);
    case 'rate-negative':
      return setRate(resources[0], -1);
  }
}

function isPoint(value: unknown): value is Point {
  return Array.isArray(value) && value.length === 2 && typeof value[0] === 'string';
}

/** A series attribute: an array of `[timestamp, value]` pairs (an empty array counts). */
function isSeries(value: unknown): value is Point[] {
  return Array.isArray(value) && value.every(isPoint);
}

function eachSeries(resources: readonly MutableResource[], change: (name: string, points: Point[], attributes: Record<string, unknown>) => boolean): boolean {
  let changed = false;
  for (const resource of resources) {
    for (const [name, value] of Object.entries(resource.attributes)) {
      if (isSeries(value) && change(name, value, resource.attributes)) changed = true;
    }
  }
  return changed;
}

/** The point a value fault hits: the middle of the first series that fits, oldest first. */
function middlePoint(resource: MutableResource | undefined, fits: (name: string) => boolean): Point | undefined {
  for (const [name, value] of Object.entries(resource?.attributes ?? {})) {
    if (fits(name) && isSeries(value) && value.length > 0) return value[Math.floor(value.length / 2)];
  }
  return undefined;
}

function setCount(resource: MutableResource | undefined, next: (value: number) => number): boolean {
  const isCount = (name: string): boolean => !RATE_ATTRIBUTES.has(name);
  const point = middlePoint(resource, isCount);
  if (point) {
    point[1] = next(typeof point[1] === 'number' ? point[1] : 0);
    return true;
  }
  for (const [name, value] of Object.entries(resource?.attributes ?? {})) {
    if (isCount(name) && typeof value === 'number' && resource) {
      resource.attributes[name] = next(value);
      return true;
    }
  }
  return false;
}

function setRate(resource: MutableResource | undefined, rate: number): boolean {
  const point = middlePoint(resource, (name) => RATE_ATTRIBUTES.has(name));
  if (point) {
    point[1] = rate;
    return true;
  }
  if (resource && 'average_rate' in resource.attributes) {
    resource.attributes.average_rate = rate;
    return true;
  }
  return false;
}

/** The middle point of the first series again, right after itself, with another value. */
function repeatPoint(resource: MutableResource | undefined): boolean {
  for (const value of Object.values(resource?.attributes ?? {})) {
    if (!isSeries(value) || value.length === 0) continue;
    const at = Math.floor(value.length / 2);
    const [timestamp, count] = value[at]!;
    value.splice(at + 1, 0, [timestamp, typeof count === 'number' ? count + 1 : 1]);
    return true;
  }
  // A summary's pairs: the first rate counted twice, with different counts.
  const pairs = resource?.attributes.rates_per_value;
  if (!Array.isArray(pairs) || pairs.length === 0) return false;
  const first: unknown = pairs[0];
  if (!Array.isArray(first) || typeof first[1] !== 'number') return false;
  pairs.push([first[0], first[1] + 1]);
  return true;
}

/**
 * Day points (all at `T00:00:00+00:00`) keep their calendar date with midnight in the other
 * offset, as an API whose days are local days would send them; hourly points keep their
 * instant, written in the other offset.
 */
function reoffset(points: Point[], offset: string): boolean {
  if (points.length === 0) return false;
  const daily = points.every(([timestamp]) => timestamp.endsWith('T00:00:00+00:00'));
  const offsetMs = (offset.startsWith('-') ? -1 : 1) * (Number(offset.slice(1, 3)) * 60 + Number(offset.slice(4, 6))) * 60_000;
  for (const point of points) {
    if (daily) point[0] = `${point[0].slice(0, 19)}${offset}`;
    else point[0] = `${new Date(Date.parse(point[0]) + offsetMs).toISOString().slice(0, 19)}${offset}`;
  }
  return true;
}

/**
 * The resource names the next venue (or project) of the world instead of the one asked for: a
 * `venue`/`project` relationship is rewritten; a single analytics resource, which has none in
 * the spec, gets a `venue` relationship naming the venue after the path's.
 */
function pointElsewhere(resource: MutableResource, context: HostileContext): boolean {
  const venues = context.world.venues.map((venue) => venue.id);
  const projects = context.world.projects.map((project) => project.id);
  const after = (ids: readonly string[], id: string): string | undefined => {
    const at = ids.indexOf(id);
    return at === -1 || ids.length < 2 ? undefined : ids[(at + 1) % ids.length];
  };
  let changed = false;
  for (const [name, ids] of [
    ['venue', venues],
    ['project', projects],
  ] as const) {
    const data = resource.relationships?.[name]?.data;
    const other = data ? after(ids, data.id) : undefined;
    if (data && other) {
      data.id = other;
      changed = true;
    }
  }
  const pathVenue = /^\/analytics\/[a-z-]+\/([^/]+)\/$/.exec(context.path)?.[1];
  if (!changed && pathVenue && !resource.relationships?.venue) {
    const other = after(venues, pathVenue);
    if (other) {
      resource.relationships = { ...resource.relationships, venue: { data: { type: 'venues', id: other } } };
      changed = true;
    }
  }
  return changed;
}
