import { resourceAttributes, type EndpointRow } from '../catalogue/index.js';
import type { DriftReporter } from './drift.js';
import { checkResource, type ResourceLike } from './resource.js';
import { checkScope, relationshipId } from './scope.js';
import { schemaError } from './schema-error.js';
import { contradictoryValues } from './answer-errors.js';

/** One role as the API lists it now (a snapshot); the warehouse turns snapshots into versions. */
export interface RoleSnapshotRow {
  readonly roleId: string;
  /** Venue id for venue roles, project id for project roles (from the relationship). */
  readonly scopeId: string;
  readonly accountId: string;
  readonly name: string;
  /** `project-roles` for a venue role inherited from the project; null otherwise (and for project roles). */
  readonly inheritedFrom: string | null;
  readonly permissions: readonly string[];
}

const RoleAttributes = resourceAttributes['project-roles'];

/** A role of the list filtered by `askedId` (`filter[venue]` / `filter[project]`): it must name that venue or project. */
export function roleFromResource(endpoint: EndpointRow, resource: ResourceLike, askedId: string, where: string, drift: DriftReporter): RoleSnapshotRow {
  const attributes = checkResource(endpoint, resource, where, drift);
  // What both role types hold, read typed (the row's schema already checked it).
  const { name, permissions } = RoleAttributes.parse(attributes);
  checkScope(endpoint, resource, askedId, where);
  const scopeName = endpoint.scope === 'project' ? 'project' : 'venue';
  const scopeId = relationshipId(resource, scopeName);
  const accountId = relationshipId(resource, 'account');
  if (typeof resource.id !== 'string' || resource.id === '') throw schemaError(endpoint.stream, `${where}.id`, 'is missing');
  if (!scopeId) throw schemaError(endpoint.stream, `${where}.relationships.${scopeName}.data.id`, 'is missing');
  if (!accountId) throw schemaError(endpoint.stream, `${where}.relationships.account.data.id`, 'is missing');
  const inherited = attributes['inherited-from'];
  return {
    roleId: resource.id,
    scopeId,
    accountId,
    name,
    inheritedFrom: typeof inherited === 'string' && inherited !== '' ? inherited : null,
    // Sorted: the order of permissions carries no meaning, so it must not open a new version.
    permissions: [...permissions].sort(),
  };
}

/** A role as found in the answer: its row and the JSON path errors name it by. */
export interface FoundRole {
  readonly where: string;
  readonly row: RoleSnapshotRow;
}

/**
 * One row per role of a snapshot (docs/warehouse.md, "One row per role"). Role ids are UUIDs, compared in any case, as
 * the warehouse stores them: a role listed twice (the page loop already refuses the same id
 * twice; this catches `ABC…` and `abc…`) with the same content is one role; with other content it
 * fails the slice with VENUE_API_CONTRADICTORY_VALUES, like a point sent twice with two values.
 */
export function oneRowPerRole(stream: string, found: readonly FoundRole[]): RoleSnapshotRow[] {
  const byId = new Map<string, FoundRole>();
  for (const role of found) {
    const key = role.row.roleId.toLowerCase();
    const earlier = byId.get(key);
    if (earlier === undefined) {
      byId.set(key, role);
      continue;
    }
    if (!sameRole(earlier.row, role.row)) {
      throw contradictoryValues(stream, `${role.where}.id`, `repeats role ${role.row.roleId} of ${earlier.where} with other content`);
    }
  }
  return [...byId.values()].map((role) => role.row);
}

function sameRole(a: RoleSnapshotRow, b: RoleSnapshotRow): boolean {
  return (
    a.scopeId.toLowerCase() === b.scopeId.toLowerCase() &&
    a.accountId.toLowerCase() === b.accountId.toLowerCase() &&
    a.name === b.name &&
    a.inheritedFrom === b.inheritedFrom &&
    new Set(a.permissions).size === new Set(b.permissions).size &&
    a.permissions.every((permission) => b.permissions.includes(permission))
  );
}
