import { defaultStreams, type Catalogue, type StreamSet } from '../catalogue/index.js';
import type { Config } from '../config/index.js';
import { UsageError } from '../errors/index.js';
import { closestName } from '../infra/did-you-mean.js';

export interface RunScope {
  readonly streams: readonly string[];
  readonly venues: readonly string[];
  readonly projects: readonly string[];
}

/**
 * The streams and venues a run covers: the command's `--streams`/`--venues`, else the config's
 * streams of the set the command works on (see defaultStreams) and `scope.venues`. Unknown
 * streams and venues outside `scope.venues` are refused before anything runs.
 */
export function resolveScope(config: Config, catalogue: Catalogue, set: StreamSet, streams?: readonly string[], venues?: readonly string[]): RunScope {
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
  return { streams: [...new Set(selected)], venues: [...new Set(chosen)], projects: config.scope.projects };
}
