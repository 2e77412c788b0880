import type { Catalogue } from '../catalogue/index.js';

/**
 * A warning when the streams a sync runs need venue or project ids the scope does not list:
 * the run then succeeds having loaded nothing of them (only the token's own account, with an
 * empty scope), which looks like data that is missing upstream. Undefined when the scope has them.
 */
export function emptyScopeWarning(
  catalogue: Catalogue,
  streams: readonly string[],
  scope: { readonly venues: readonly string[]; readonly projects: readonly string[] },
): string | undefined {
  const needs = (kind: string): boolean => streams.some((stream) => catalogue.rowsOf(stream).some((row) => row.scope === kind));
  const missing = [
    ...(needs('venue') && scope.venues.length === 0 ? ['scope.venues'] : []),
    ...(needs('project') && scope.projects.length === 0 ? ['scope.projects'] : []),
  ];
  if (missing.length === 0) return undefined;
  const streamsOf = missing.map((key) => (key === 'scope.venues' ? 'venue' : 'project')).join(' and ');
  return (
    `${missing.join(' and ')} ${missing.length > 1 ? 'list' : 'lists'} no ids, so the ${streamsOf} streams load nothing. ` +
    'Add the ids to scope in the config (`venue-etl init --venues ID,ID --projects ID,ID` writes a config with them).'
  );
}
