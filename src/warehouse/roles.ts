import type { Session } from './session.js';
import { invalidBatch } from './errors.js';
import { sql } from './sql-files.js';
import { markTableChanged } from './export-changes.js';
import { decideHold, type HoldDecision, type RoleHold, type RoleKind } from './role-holds.js';

export type { RoleKind } from './role-holds.js';

/** One role as the API lists it now (venue-roles / project-roles resources). */
export interface RoleRow {
  readonly roleId: string;
  readonly accountId: string | null;
  readonly name: string | null;
  /** Venue roles only: `project-roles` for a role inherited from the project. */
  readonly inheritedFrom?: string | null;
  readonly permissions: readonly string[];
}

export interface RolesOutcome {
  readonly opened: number;
  readonly closed: number;
  readonly unchanged: number;
  /** The snapshot was held (nothing written), or confirmed by a later run and applied. */
  readonly snapshot?: Exclude<HoldDecision, { state: 'apply' }>;
}

interface StoredRole {
  role_id: string;
  account_id: string | null;
  name: string | null;
  inherited_from: string | null;
  permissions: string[];
  valid_from_ms: number;
}

/** The statements of each kind: the two tables differ in their scope column and inherited_from. */
const STATEMENTS = {
  venue: {
    current: 'warehouse/venue-roles-current.sql',
    close: 'warehouse/venue-roles-close.sql',
    dropOpen: 'warehouse/venue-roles-drop-open.sql',
    open: 'warehouse/venue-roles-open.sql',
  },
  project: {
    current: 'warehouse/project-roles-current.sql',
    close: 'warehouse/project-roles-close.sql',
    dropOpen: 'warehouse/project-roles-drop-open.sql',
    open: 'warehouse/project-roles-open.sql',
  },
} as const;

/** Permission order carries no meaning upstream; sorted, a reordering is not a new version. */
function canonical(role: RoleRow, kind: RoleKind): Omit<StoredRole, 'valid_from_ms'> {
  return {
    role_id: role.roleId.toLowerCase(),
    account_id: role.accountId === null ? null : role.accountId.toLowerCase(),
    name: role.name,
    inherited_from: kind === 'venue' ? (role.inheritedFrom ?? null) : null,
    permissions: [...new Set(role.permissions)].sort(),
  };
}

function sameVersion(a: Omit<StoredRole, 'valid_from_ms'>, b: Omit<StoredRole, 'valid_from_ms'>): boolean {
  return (
    a.account_id === b.account_id &&
    a.name === b.name &&
    a.inherited_from === b.inherited_from &&
    a.permissions.length === b.permissions.length &&
    a.permissions.every((p, i) => p === b.permissions[i])
  );
}

/**
 * Versions the roles of one venue or project against a fresh snapshot, inside the caller's
 * transaction: a role gone upstream gets valid_to = at; a changed role (account, name,
 * inherited_from, permissions) has its version closed and a new one opened at `at`; an
 * unchanged role is not touched; a new role opens at `at`. The same snapshot twice is a no-op.
 * A snapshot that would close most of the scope's open roles is held instead, until a later
 * run reads the same one (see decideHold; `hold` is the scope's held answer, if any).
 */
export async function applyRolesSnapshot(
  session: Session,
  kind: RoleKind,
  scopeId: string,
  roles: readonly RoleRow[],
  runId: string,
  at: Date,
  hold?: RoleHold,
): Promise<RolesOutcome> {
  const incoming = incomingRoles(kind, scopeId, roles);
  const stored = await session.all<StoredRole & Record<string, unknown>>(sql(STATEMENTS[kind].current), [scopeId]);
  const current = new Map(stored.map((row) => [row.role_id, row]));
  const gone = [...current.keys()].filter((roleId) => !incoming.has(roleId));
  const decision = await decideHold(session, {
    kind,
    scopeId,
    open: current.size,
    wouldClose: gone.length,
    roles: [...incoming.values()].sort((a, b) => (a.role_id < b.role_id ? -1 : 1)),
    runId,
    at,
    hold,
  });
  if (decision.state === 'held') return { opened: 0, closed: 0, unchanged: current.size, snapshot: decision };
  const outcome = await writeVersions(session, { kind, scopeId, runId, at }, incoming, current, gone);
  return decision.state === 'confirmed' ? { ...outcome, snapshot: decision } : outcome;
}

/** The snapshot by role id. The extractor already refuses a role listed twice differently; this stays as the warehouse's own guard. */
function incomingRoles(kind: RoleKind, scopeId: string, roles: readonly RoleRow[]): Map<string, Omit<StoredRole, 'valid_from_ms'>> {
  const incoming = new Map<string, Omit<StoredRole, 'valid_from_ms'>>();
  for (const role of roles) {
    const row = canonical(role, kind);
    const seen = incoming.get(row.role_id);
    if (seen && !sameVersion(seen, row)) {
      throw invalidBatch(`the ${kind}-roles snapshot of ${scopeId} lists role ${row.role_id} twice, differently`);
    }
    incoming.set(row.role_id, row);
  }
  return incoming;
}

interface Scope {
  readonly kind: RoleKind;
  readonly scopeId: string;
  readonly runId: string;
  readonly at: Date;
}

async function writeVersions(
  session: Session,
  { kind, scopeId, runId, at }: Scope,
  incoming: ReadonlyMap<string, Omit<StoredRole, 'valid_from_ms'>>,
  current: ReadonlyMap<string, StoredRole>,
  gone: readonly string[],
): Promise<Omit<RolesOutcome, 'snapshot'>> {
  const statements = STATEMENTS[kind];
  const atIso = at.toISOString();
  const close = (roleId: string) => session.run(sql(statements.close), [scopeId, roleId, atIso]);
  const open = (row: Omit<StoredRole, 'valid_from_ms'>) => {
    const permissions = JSON.stringify(row.permissions);
    return kind === 'venue'
      ? session.run(sql(statements.open), [row.role_id, scopeId, row.account_id, row.name, row.inherited_from, permissions, atIso, runId])
      : session.run(sql(statements.open), [row.role_id, scopeId, row.account_id, row.name, permissions, atIso, runId]);
  };

  let opened = 0;
  let closed = 0;
  let unchanged = 0;
  for (const roleId of gone) {
    await close(roleId);
    closed++;
  }
  for (const [roleId, row] of incoming) {
    const existing = current.get(roleId);
    if (existing && sameVersion(existing, row)) {
      unchanged++;
      continue;
    }
    if (existing && existing.valid_from_ms === at.getTime()) {
      // Two different snapshots at the same instant: the later one is the version of `at`.
      await session.run(sql(statements.dropOpen), [scopeId, roleId]);
    } else if (existing) {
      await close(roleId);
      closed++;
    }
    await open(row);
    opened++;
  }
  if (opened + closed > 0) await markTableChanged(session, kind === 'venue' ? 'venue_roles' : 'project_roles');
  return { opened, closed, unchanged };
}

/** Account ids the current venue and project roles point to. */
export async function currentRoleAccountIds(session: Pick<Session, 'all'>): Promise<string[]> {
  const rows = await session.all<{ account_id: string }>(sql('warehouse/role-account-ids.sql'));
  return rows.map((row) => row.account_id);
}
