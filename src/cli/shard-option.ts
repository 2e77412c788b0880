import type { Config } from '../config/index.js';
import { formatShard, parseShard, SHARD_ENV, venuesOfShard, type Shard } from '../runner/shard.js';
import { stringOption } from './args.js';
import type { OptionSpec, ParsedArgs } from './command.js';

/** `--shard I/N` of sync and backfill. */
export const SHARD_OPTION: OptionSpec = {
  type: 'string',
  description: `only shard I of N (0-based) of the venues, by a hash of the venue id; roles and accounts run on shard 0 only (default: ${SHARD_ENV}, else every venue)`,
  valueName: 'I/N',
};

/**
 * `--shard I/N`, else the VENUE_ETL_SHARD environment variable (a Kubernetes Indexed Job passes
 * `$(JOB_COMPLETION_INDEX)/N`); 0-based. Malformed or out of range is a usage error naming its source.
 */
export function shardOption(args: ParsedArgs, env: Readonly<Record<string, string | undefined>>): Shard | undefined {
  const flag = stringOption(args, 'shard');
  if (flag !== undefined) return parseShard(flag, '--shard');
  const variable = env[SHARD_ENV];
  return variable === undefined || variable.trim() === '' ? undefined : parseShard(variable, SHARD_ENV);
}

/** What a sharded run's summary says of its part of the work (`shard` in `--format json`). */
export interface ShardSummary {
  readonly shard: string;
  readonly venues: number;
  readonly ofVenues: number;
  /** Roles and accounts: taken by shard 0 only, for every venue of the scope. */
  readonly sharedStreams: boolean;
}

export function shardSummary(config: Pick<Config, 'scope'>, shard: Shard, venues: readonly string[] | undefined): ShardSummary {
  const all = [...new Set(venues ?? config.scope.venues)];
  return { shard: formatShard(shard), venues: venuesOfShard(all, shard).length, ofVenues: all.length, sharedStreams: shard.index === 0 };
}

/** The summary's line, e.g. `shard 1/3: 34 of 100 venues; roles and accounts are shard 0's`. */
export function shardLine(summary: ShardSummary): string {
  const shared = summary.sharedStreams ? 'this shard also takes roles and accounts, for every venue' : 'roles and accounts are taken by shard 0 only';
  return `  shard:    ${summary.shard} (0-based): ${summary.venues} of ${summary.ofVenues} venues; ${shared}`;
}
