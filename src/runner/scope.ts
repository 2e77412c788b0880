import { defaultStreams, type Catalogue, type StreamSet } from '../catalogue/index.js';
import type { Config } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import { closestName } from '../infra/did-you-mean.js';
import { formatShard, venuesOfShard, type Shard } from './shard.js';

/** Streams planned over one list of venues and projects. */
export interface ScopePart {
  readonly streams: readonly string[];
  readonly venues: readonly string[];
  readonly projects: readonly string[];
}

export interface RunScope extends ScopePart {
  /** With `--shard`: which one. `venues` are then the shard's venues. */
  readonly shard?: Shard;
  /**
   * What to plan: one part per list of venues. Without a shard, the scope itself. With one, the
   * venue streams over the shard's venues, plus on shard 0 only the streams every shard would
   * otherwise fetch (see `sharedStreams`) over every venue and project of the scope.
   */
  readonly parts: readonly ScopePart[];
}

/**
 * The streams a run covers (`--streams`, else the config's streams of the set the command works
 * on; see defaultStreams), its venues (`--venues`, else `scope.venues`) and projects, narrowed to
 * one shard when `shard` is given. Unknown streams and venues outside `scope.venues` are refused
 * before anything runs.
 */
export function resolveScope(
  config: Config,
  catalogue: Catalogue,
  set: StreamSet,
  streams?: readonly string[],
  venues?: readonly string[],
  shard?: Shard,
): RunScope {
  const selected = streams ?? defaultStreams(catalogue, config.sync.streams, set);
  const unknown = selected.filter((stream) => !catalogue.streams.includes(stream));
  if (unknown.length > 0) {
    const named = unknown.map((stream) => {
      const close = closestName(stream, catalogue.streams);
      return close === undefined ? stream : `${stream} (did you mean "${close}"?)`;
    });
    throw new UsageError(`unknown stream${unknown.length > 1 ? 's' : ''}: ${named.join(', ')}`, `known streams: ${catalogue.streams.join(', ')}`);
  }
  const inScope = new Set(config.scope.venues.map((v) => v.toLowerCase()));
  const chosen = venues ?? config.scope.venues;
  const outside = chosen.filter((venue) => !inScope.has(venue.toLowerCase()));
  if (outside.length > 0) {
    throw new UsageError(
      `venue${outside.length > 1 ? 's' : ''} not in scope.venues: ${outside.join(', ')}`,
      'add them to scope.venues in the config, or check the ids',
    );
  }
  const whole: ScopePart = { streams: [...new Set(selected)], venues: [...new Set(chosen)], projects: config.scope.projects };
  if (shard === undefined) return { ...whole, parts: [whole] };
  return shardScope(whole, catalogue, shard);
}

/**
 * Streams that every shard would fetch the same: those not asked per venue (project roles, the
 * accounts) and the streams they take ids from (the accounts are looked up from the roles of
 * every venue, so venue-roles goes with them). Shard 0 takes them, for the whole scope.
 */
export function sharedStreams(catalogue: Catalogue): Set<string> {
  const shared = new Set(catalogue.rows.filter((row) => row.scope !== 'venue').map((row) => row.stream));
  for (let grew = true; grew; ) {
    grew = false;
    for (const row of catalogue.rows) {
      if (!shared.has(row.stream)) continue;
      for (const parent of row.resolve?.parents ?? []) {
        if (!shared.has(parent)) {
          shared.add(parent);
          grew = true;
        }
      }
    }
  }
  return shared;
}

function shardScope(whole: ScopePart, catalogue: Catalogue, shard: Shard): RunScope {
  const shared = sharedStreams(catalogue);
  const own: ScopePart = {
    streams: whole.streams.filter((stream) => !shared.has(stream)),
    venues: venuesOfShard(whole.venues, shard),
    projects: [],
  };
  const common: ScopePart = { ...whole, streams: whole.streams.filter((stream) => shared.has(stream)) };
  const parts = [own, ...(shard.index === 0 ? [common] : [])].filter((part) => part.streams.length > 0);
  return {
    streams: parts.flatMap((part) => part.streams),
    venues: own.venues,
    projects: shard.index === 0 ? whole.projects : [],
    shard,
    parts,
  };
}

/** What `sync_runs.detail` and the run summary say of a sharded run; nothing without a shard. */
export function shardDetail(scope: RunScope): Record<string, unknown> {
  return scope.shard === undefined ? {} : { shard: formatShard(scope.shard) };
}
