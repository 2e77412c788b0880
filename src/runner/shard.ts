import { createHash } from 'node:crypto';
import { UsageError } from '../errors/index.js';

/**
 * One worker's part of a config's venues: shard `index` of `count`, 0-based (0..count-1), the
 * numbering of a Kubernetes Indexed Job's JOB_COMPLETION_INDEX, so `--shard
 * $(JOB_COMPLETION_INDEX)/N` needs no arithmetic.
 */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/** The environment variable read when `--shard` is not given (the flag wins). */
export const SHARD_ENV = 'VENUE_ETL_SHARD';

/** More workers than this on one config is a typo, not a plan (each one checks the token). */
export const MAX_SHARDS = 10_000;

/** `I/N` as the flag and the environment variable write it. */
export function formatShard(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}

/**
 * Parses `I/N` (0 <= I < N, 1 <= N <= MAX_SHARDS). `source` names where the text came from
 * (`--shard` or the environment variable) in the error, which is a usage error (exit 2).
 */
export function parseShard(text: string, source: string): Shard {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text);
  const example = `e.g. ${source === SHARD_ENV ? `${SHARD_ENV}=0/3` : '--shard 0/3'} for the first of three workers (shards are numbered from 0, like JOB_COMPLETION_INDEX)`;
  if (!match) throw new UsageError(`${source} must be I/N (shard I of N, I from 0 to N-1), got "${text}"`, example);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || count > MAX_SHARDS) throw new UsageError(`${source}: the number of shards N must be between 1 and ${MAX_SHARDS}, got ${count}`, example);
  if (index >= count) throw new UsageError(`${source}: shard ${index} does not exist in ${count} shards (they are numbered 0 to ${count - 1})`, example);
  return { index, count };
}

/**
 * The shard a venue belongs to among `count`: the first 6 bytes of SHA-256 of the lower-cased id,
 * read as a big-endian integer, modulo `count`. It depends on the id and `count` only — not on
 * the other venues of the scope nor their order — so adding a venue never moves another one, and
 * every worker of a fleet computes the same split on its own.
 */
export function shardOfVenue(venueId: string, count: number): number {
  return createHash('sha256').update(venueId.toLowerCase()).digest().readUIntBE(0, 6) % count;
}

/** The venues of `venues` that shard `shard` takes, in their order. */
export function venuesOfShard(venues: readonly string[], shard: Shard): string[] {
  return venues.filter((venue) => shardOfVenue(venue, shard.count) === shard.index);
}
