import type { SliceCommit } from './slice-commit.js';
import { dateToMs, DAY_MS } from '../calendar/index.js';

/** The venues a summary slice owns a region of: its scope plus every venue its rows carry. */
export function summaryVenues(commit: SliceCommit): readonly string[] {
  // Lower case: the same UUID spelled twice must be one window, not two overlapping ones.
  const venues = new Set<string>([commit.scopeId.toLowerCase()]);
  const rows = commit.summaries?.rows.venueId ?? [];
  let last = '';
  for (let i = 0; i < rows.length; i++) {
    if (rows[i] !== last) {
      last = rows[i];
      venues.add(last.toLowerCase());
    }
  }
  return [...venues];
}

interface Claim {
  readonly from: number;
  readonly to: number;
  readonly round: number;
}

/**
 * Splits a group of slices into rounds within which no two slices replace overlapping parts of
 * the same (venue, stream). Rounds run in order inside the one transaction, so a later slice
 * of the group wins, as if the slices had been committed one after the other. Groups from the
 * runner rarely overlap: usually this is one round.
 */
export function planRounds(commits: readonly SliceCommit[]): number[][] {
  const claims = new Map<string, Claim[]>();
  const rounds: number[][] = [];
  commits.forEach((commit, index) => {
    const from = dateToMs(commit.windowFrom);
    const to = dateToMs(commit.windowTo) + DAY_MS;
    const keys: string[] = [];
    // The hour and day grains are separate windows: they never overlap each other.
    if (commit.series) keys.push(`series|${commit.scopeId.toLowerCase()}|${commit.stream}|${commit.seriesGrain ?? 'day'}`);
    if (commit.summaries) for (const venue of summaryVenues(commit)) keys.push(`summary|${venue}|${commit.stream}`);
    let round = 0;
    for (const key of keys) {
      for (const claim of claims.get(key) ?? []) {
        if (claim.from < to && from < claim.to) round = Math.max(round, claim.round + 1);
      }
    }
    for (const key of keys) {
      const list = claims.get(key) ?? [];
      list.push({ from, to, round });
      claims.set(key, list);
    }
    rounds[round] ??= [];
    rounds[round].push(index);
  });
  return rounds;
}
