import type { StreamFreshness } from '../lifecycle/index.js';

/** How old each stream's newest loaded day may be, in days behind yesterday (UTC). */
export interface FreshnessTargets {
  /** `sync.staleAfterDays` (default 2): every stream without its own target. */
  readonly defaultDays: number;
  /** `freshness.streams`: a target per stream (e.g. hourly data within 1 day, roles within 7). */
  readonly streams: Readonly<Record<string, number>>;
}

export function freshnessTargets(config: {
  readonly sync: { readonly staleAfterDays: number };
  readonly freshness: { readonly streams: Readonly<Record<string, number>> };
}): FreshnessTargets {
  return { defaultDays: config.sync.staleAfterDays, streams: config.freshness.streams };
}

export function maxAgeDaysOf(targets: FreshnessTargets, stream: string): number {
  return targets.streams[stream] ?? targets.defaultDays;
}

const DAY_MS = 86_400_000;

/** One stream's oldest cursor: the newest day every scope of it has loaded. */
export interface StreamCursor {
  readonly stream: string;
  readonly oldestCursor: string;
}

/**
 * Freshness per stream, the rule of sql/reports/freshness.sql: days from the oldest cursor to
 * yesterday (UTC; a snapshot stream, current to today, is 0 behind), stale beyond its target.
 */
export function evaluateFreshness(cursors: readonly StreamCursor[], targets: FreshnessTargets, today: string): StreamFreshness[] {
  const yesterday = Date.parse(`${today}T00:00:00Z`) - DAY_MS;
  return cursors.map(({ stream, oldestCursor }) => {
    const daysBehind = Math.max(0, Math.round((yesterday - Date.parse(`${oldestCursor}T00:00:00Z`)) / DAY_MS));
    const maxAgeDays = maxAgeDaysOf(targets, stream);
    return { stream, newestDay: oldestCursor, daysBehind, maxAgeDays, stale: daysBehind > maxAgeDays };
  });
}

/** Seconds from the end of a stream's newest loaded day to `now`: the age the metric shows. */
export function dataAgeSeconds(freshness: Pick<StreamFreshness, 'newestDay'>, now: Date): number {
  const endOfDay = Date.parse(`${freshness.newestDay}T00:00:00Z`) + DAY_MS;
  return Math.max(0, Math.round((now.getTime() - endOfDay) / 1000));
}
