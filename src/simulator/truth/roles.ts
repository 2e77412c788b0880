import { relationship, type Resource } from '../jsonapi.js';
import { uuidFrom } from '../uuid.js';
import type { RoleRecord } from '../world/role-book.js';

/**
 * A venue role as served by `/core/venue-roles/`. A venue's own roles have `inherited-from`
 * set to an empty string: the spec types the attribute as a string and names only the value
 * for inherited roles.
 */
export function venueRoleResource(role: RoleRecord): Resource {
  return {
    type: 'venue-roles',
    id: role.id,
    attributes: { name: role.name, 'inherited-from': '', permissions: [...role.permissions] },
    relationships: { venue: relationship('venues', role.scopeId), account: relationship('accounts', role.accountId) },
  };
}

/**
 * A project role as it appears in a venue's list. Its id is derived from the project role and
 * the venue, so each (venue, inherited role) pair has an id of its own.
 */
export function inheritedVenueRoleResource(seed: number, role: RoleRecord, venueId: string): Resource {
  return {
    type: 'venue-roles',
    id: uuidFrom(seed, 'inherited-role', role.id, venueId),
    attributes: { name: role.name, 'inherited-from': 'project-roles', permissions: [...role.permissions] },
    relationships: { venue: relationship('venues', venueId), account: relationship('accounts', role.accountId) },
  };
}

export function projectRoleResource(role: RoleRecord): Resource {
  return {
    type: 'project-roles',
    id: role.id,
    attributes: { name: role.name, permissions: [...role.permissions] },
    relationships: { project: relationship('projects', role.scopeId), account: relationship('accounts', role.accountId) },
  };
}
