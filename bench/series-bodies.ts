/**
 * JSON:API bodies of the history endpoints, as the simulator serves them, held as strings: the
 * input of the load benchmark. The simulator computes a few hundred venues fast enough; larger
 * sets reuse each base venue's bodies under several scope ids (the venue of a series row comes
 * from the request, not from the body), so every row is still distinct.
 */
import { addDays } from '../src/calendar/index.js';
import { splitWindows } from '../src/plan/index.js';
import { startSimulator, type SeriesStream } from '../src/simulator/index.js';

export const SERIES_STREAMS: readonly SeriesStream[] = ['venue-devices-history', 'venue-users-history', 'venue-remarketing-history', 'rating-history'];
/** Metrics per venue and day over the four history streams (4 + 2 + 1 + 2). */
export const METRICS_PER_VENUE_DAY = 9;

export interface SeriesBodies {
  /** Scope ids (venue UUIDs) to load; several may share a base venue's bodies. */
  readonly scopeIds: readonly string[];
  readonly from: string;
  readonly to: string;
  readonly windowDays: number;
  /** Rows the bodies hold in total, over every scope id. */
  readonly rows: number;
  readonly bytes: number;
  /** The body a request for (stream, scope id, window) is answered with. */
  body(stream: string, scopeId: string, windowFrom: string): string;
  /** Every (scope id, stream, body) once, in plan order. */
  each(): Iterable<{ readonly scopeId: string; readonly stream: string; readonly body: string }>;
}

export interface SeriesBodiesOptions {
  /** At least this many rows. */
  readonly rows: number;
  readonly windowDays?: number;
  readonly windows?: number;
  /** Distinct venues the simulator computes; more scope ids reuse them. */
  readonly baseVenues?: number;
  readonly today?: string;
}

export async function buildSeriesBodies(options: SeriesBodiesOptions): Promise<SeriesBodies> {
  const windowDays = options.windowDays ?? 31;
  const windows = options.windows ?? 12;
  const today = options.today ?? '2026-01-31';
  const days = windowDays * windows;
  const to = addDays(today, -1);
  const from = addDays(to, 1 - days);
  const rowsPerScope = days * METRICS_PER_VENUE_DAY;
  const scopes = Math.ceil(options.rows / rowsPerScope);
  const baseCount = Math.min(scopes, options.baseVenues ?? 100);
  const sim = await startSimulator({ venues: baseCount, days: days + 1, today });
  const bodies = new Map<string, string>();
  const base = new Map<string, string>();
  const scopeIds: string[] = [];
  let bytes = 0;
  try {
    const venues = sim.world.venues.map((v) => v.id);
    const spans = splitWindows(from, to, windowDays);
    for (const venue of venues) {
      for (const stream of SERIES_STREAMS) {
        for (const w of spans) {
          const text = JSON.stringify({ data: sim.truth.seriesResource(venue, stream, w.from, w.to), jsonapi: { version: '1.0' } });
          bodies.set(`${stream}|${venue}|${w.from}`, text);
        }
      }
    }
    for (let i = 0; i < scopes; i++) {
      const venue = venues[i % baseCount]!;
      const copy = Math.floor(i / baseCount);
      // Same venue prefix, the copy number in the last group: a valid, distinct UUID.
      const scopeId = copy === 0 ? venue : `${venue.slice(0, 24)}${copy.toString(16).padStart(12, '0')}`;
      scopeIds.push(scopeId);
      base.set(scopeId, venue);
    }
    for (const text of bodies.values()) bytes += text.length;
    bytes *= scopes / baseCount;
  } finally {
    await sim.close();
  }
  const body = (stream: string, scopeId: string, windowFrom: string): string => {
    const text = bodies.get(`${stream}|${base.get(scopeId)}|${windowFrom}`);
    if (text === undefined) throw new Error(`no body for ${stream} ${scopeId} ${windowFrom}`);
    return text;
  };
  return {
    scopeIds,
    from,
    to,
    windowDays,
    rows: scopes * rowsPerScope,
    bytes: Math.round(bytes),
    body,
    *each() {
      for (const scopeId of scopeIds) {
        for (const stream of SERIES_STREAMS) {
          for (const w of splitWindows(from, to, windowDays)) yield { scopeId, stream, body: body(stream, scopeId, w.from) };
        }
      }
    },
  };
}
