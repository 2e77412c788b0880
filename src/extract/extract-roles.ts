import { oneRowPerRole, roleFromResource, type RoleSnapshotRow } from '../normalize/index.js';
import type { Slice } from '../plan/index.js';
import type { ExtractContext } from './extract-analytics.js';
import { fetchResources } from './fetch-resources.js';
import { placeholderValues, requestPath } from './requests.js';

/** One venue's or project's roles, every page: a snapshot each must name that venue or project in, one row per role. */
export async function extractRoles(slice: Slice, context: ExtractContext): Promise<RoleSnapshotRow[]> {
  const row = slice.endpoint;
  const path = requestPath(row, placeholderValues(row, slice.scopeId), {}, context.pageSize);
  const found = await fetchResources(context.source, row, path, {
    stream: slice.stream,
    pageSize: context.pageSize,
    ...(context.signal ? { signal: context.signal } : {}),
  });
  const roles = found.map(({ where, resource }) => ({ where, row: roleFromResource(row, resource, slice.scopeId, where, context.drift) }));
  return oneRowPerRole(slice.stream, roles);
}
