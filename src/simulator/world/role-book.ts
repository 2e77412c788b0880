import { draw, unit } from '../hash.js';
import { uuidFrom } from '../uuid.js';
import { ALL_PERMISSIONS, permissionsFor, sortPermissions, type RoleName } from './permissions.js';
import type { Account, World } from './world.js';

/** One role as the simulator keeps it; the HTTP layer renders it as venue-roles or project-roles. */
export interface RoleRecord {
  readonly id: string;
  readonly level: 'project' | 'venue';
  /** The project id (level project) or the venue id (level venue). */
  readonly scopeId: string;
  readonly accountId: string;
  readonly name: RoleName;
  readonly permissions: readonly string[];
}

export interface RoleChanges {
  readonly added: readonly RoleRecord[];
  readonly removed: readonly RoleRecord[];
  readonly changed: readonly { readonly before: RoleRecord; readonly after: RoleRecord }[];
}

/**
 * The roles of a world: the only part of it that changes over time (`mutate()`), so that an
 * extraction can be checked to version roles correctly between snapshots. Every change is
 * seeded by the mutation's ordinal, so the n-th call does the same thing in every run.
 */
export class RoleBook {
  private roles: RoleRecord[];
  private mutations = 0;

  constructor(private readonly world: World) {
    this.roles = initialRoles(world);
  }

  all(): readonly RoleRecord[] {
    return this.roles;
  }

  projectRoles(projectId: string): readonly RoleRecord[] {
    return this.roles.filter((role) => role.level === 'project' && role.scopeId === projectId);
  }

  venueOwnRoles(venueId: string): readonly RoleRecord[] {
    return this.roles.filter((role) => role.level === 'venue' && role.scopeId === venueId);
  }

  /** Adds a role, removes one and changes the permissions of one (never removing `me`'s access). */
  mutate(): RoleChanges {
    this.mutations += 1;
    const k = this.mutations;
    const h = (label: string): number => draw(this.world.seed, `mutation-${label}`, k);
    const meId = this.world.me.id;

    const added = this.pickAddition(h, k);
    if (added) this.roles.push(added);

    const removable = this.roles.filter((role) => role.accountId !== meId && role !== added);
    const removed = removable.length > 0 ? (removable[h('remove') % removable.length] as RoleRecord) : undefined;
    if (removed) this.roles = this.roles.filter((role) => role !== removed);

    const changeable = this.roles.filter((role) => role !== added);
    let changed: { before: RoleRecord; after: RoleRecord } | undefined;
    if (changeable.length > 0) {
      const before = changeable[h('change') % changeable.length] as RoleRecord;
      const toggled = ALL_PERMISSIONS[h('change-permission') % ALL_PERMISSIONS.length] as string;
      const has = before.permissions.includes(toggled);
      // Never empty a role: a role without permissions is not a change the real service makes.
      const permissions =
        has && before.permissions.length > 1 ? before.permissions.filter((p) => p !== toggled) : sortPermissions([...before.permissions, toggled]);
      const after: RoleRecord = { ...before, permissions };
      if (permissions.length !== before.permissions.length) {
        this.roles = this.roles.map((role) => (role === before ? after : role));
        changed = { before, after };
      }
    }
    return { added: added ? [added] : [], removed: removed ? [removed] : [], changed: changed ? [changed] : [] };
  }

  private pickAddition(h: (label: string) => number, k: number): RoleRecord | undefined {
    const candidates = this.world.accounts.filter((account) => account.id !== this.world.me.id);
    const levels: Array<'venue' | 'project'> = unit(h('add-level')) < 0.6 ? ['venue', 'project'] : ['project', 'venue'];
    for (const level of levels) {
      const scopes = level === 'venue' ? this.world.venues : this.world.projects;
      const scope = scopes[h(`add-scope-${level}`) % scopes.length];
      if (!scope) continue;
      const holders = new Set(this.roles.filter((r) => r.level === level && r.scopeId === scope.id).map((r) => r.accountId));
      const free = candidates.filter((account) => !holders.has(account.id));
      if (free.length === 0) continue;
      const account = free[h('add-account') % free.length] as Account;
      const name: RoleName = unit(h('add-name')) < 0.3 ? 'owner' : 'reader';
      return {
        id: uuidFrom(this.world.seed, 'role', level, scope.id, account.id, 'mutation', k),
        level,
        scopeId: scope.id,
        accountId: account.id,
        name,
        permissions: permissionsFor(name),
      };
    }
    return undefined;
  }
}

function initialRoles(world: World): RoleRecord[] {
  const h = (label: string, ...parts: readonly number[]): number => draw(world.seed, label, ...parts);
  const others = world.accounts.filter((account) => account.id !== world.me.id);
  const roles: RoleRecord[] = [];
  const add = (level: RoleRecord['level'], scopeId: string, account: Account, name: RoleName): void => {
    if (roles.some((r) => r.level === level && r.scopeId === scopeId && r.accountId === account.id)) return;
    roles.push({
      id: uuidFrom(world.seed, 'role', level, scopeId, account.id),
      level,
      scopeId,
      accountId: account.id,
      name,
      permissions: permissionsFor(name),
    });
  };
  world.projects.forEach((project, p) => {
    // The caller owns every project: the token can read every venue of the world.
    add('project', project.id, world.me, 'owner');
    add('project', project.id, others[h('project-reader', p) % others.length] as Account, 'reader');
    if (unit(h('project-second-owner', p)) < 0.5) add('project', project.id, others[h('project-owner', p) % others.length] as Account, 'owner');
  });
  world.venues.forEach((venue, v) => {
    const count = h('venue-role-count', v) % 3;
    for (let i = 0; i < count; i += 1) {
      const name: RoleName = unit(h('venue-role-name', v, i)) < 0.3 ? 'owner' : 'reader';
      add('venue', venue.id, others[h('venue-role-account', v, i) % others.length] as Account, name);
    }
  });
  return roles;
}
