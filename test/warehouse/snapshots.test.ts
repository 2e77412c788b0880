import { describe, expect, it } from 'vitest';
import type { AccountRow, CursorMove, RoleKind, RoleRow, SliceCommit, Warehouse } from '../../src/warehouse/index.js';
import { PROJECT, seriesSlice, useFreshWarehouse, VENUE_A } from './helpers.js';

let warehouse: Warehouse;
useFreshWarehouse((w) => (warehouse = w));

const ROLE_1 = '00000000-0000-4000-8000-000000000001';
const ROLE_2 = '00000000-0000-4000-8000-000000000002';
const ACCOUNT_1 = '00000000-0000-4000-8000-0000000000a1';
const ACCOUNT_2 = '00000000-0000-4000-8000-0000000000a2';
const T1 = new Date('2026-01-01T02:15:00Z');
const T2 = new Date('2026-01-02T02:15:00Z');
const T3 = new Date('2026-01-03T02:15:00Z');

const owner: RoleRow = { roleId: ROLE_1, accountId: ACCOUNT_1, name: 'owner', inheritedFrom: 'project-roles', permissions: ['venues.read', 'basic_data.read'] };
const reader: RoleRow = { roleId: ROLE_2, accountId: ACCOUNT_2, name: 'reader', inheritedFrom: null, permissions: ['venues.read'] };

const day = (at: Date): string => at.toISOString().slice(0, 10);

function rolesSlice(kind: RoleKind, scopeId: string, rows: readonly RoleRow[], at: Date, cursor?: CursorMove): SliceCommit {
  const stream = kind === 'venue' ? 'venue-roles' : 'project-roles';
  return { stream, scopeId, windowFrom: day(at), windowTo: day(at), roles: { kind, rows, at }, ...(cursor ? { cursor } : {}) };
}

function accountsSlice(rows: readonly AccountRow[], at: Date): SliceCommit {
  return { stream: 'accounts', scopeId: '*', windowFrom: day(at), windowTo: day(at), accounts: { rows, at } };
}

/** Commits one roles snapshot as a slice; resolves with the role versions opened plus closed. */
async function commitRoles(kind: RoleKind, scopeId: string, rows: readonly RoleRow[], runId: string, at: Date, cursor?: CursorMove): Promise<number> {
  return (await warehouse.commitSlices(runId, [rolesSlice(kind, scopeId, rows, at, cursor)])).rowsWritten;
}

/** Commits one accounts snapshot as a slice; resolves with the accounts inserted plus updated. */
async function commitAccounts(rows: readonly AccountRow[], runId: string, at: Date): Promise<number> {
  return (await warehouse.commitSlices(runId, [accountsSlice(rows, at)])).rowsWritten;
}

async function versions(table = 'venue_roles'): Promise<string[]> {
  const rows = await warehouse.query<{ r: string }>(
    `SELECT concat_ws(' ', right(role_id::VARCHAR, 1), name, array_to_string(permissions, ','),
       strftime(valid_from, '%d'), coalesce(strftime(valid_to, '%d'), 'open'), run_id) AS r
     FROM ${table} ORDER BY role_id, valid_from`,
  );
  return rows.map((row) => row.r);
}

describe('roles', () => {
  it('opens new roles, keeps unchanged ones, versions changes, closes removed ones', async () => {
    expect(await commitRoles('venue', VENUE_A, [owner, reader], 'run-1', T1)).toBe(2);
    // Same snapshot again (permissions reordered): nothing changes.
    expect(await commitRoles('venue', VENUE_A, [reader, { ...owner, permissions: [...owner.permissions].reverse() }], 'run-2', T2)).toBe(0);
    expect(await versions()).toEqual(['1 owner basic_data.read,venues.read 01 open run-1', '2 reader venues.read 01 open run-1']);

    // Reader gains a permission; owner disappears.
    // One version opened, two closed.
    expect(await commitRoles('venue', VENUE_A, [{ ...reader, permissions: ['venues.read', 'venues.list'] }], 'run-3', T3)).toBe(3);
    expect(await versions()).toEqual([
      '1 owner basic_data.read,venues.read 01 03 run-1',
      '2 reader venues.read 01 03 run-1',
      '2 reader venues.list,venues.read 03 open run-3',
    ]);
    const current = await warehouse.query('SELECT role_id::VARCHAR AS role_id, inherited_from FROM current_venue_roles');
    expect(current).toEqual([{ role_id: ROLE_2, inherited_from: null }]);
    expect(await warehouse.currentRoleAccountIds()).toEqual([ACCOUNT_2]);
  });

  it('versions project roles and moves the snapshot cursor in the same transaction', async () => {
    await commitRoles('project', PROJECT, [owner], 'run-1', T1, { mode: 'advance', date: '2026-01-01' });
    await commitRoles('project', PROJECT, [{ ...owner, accountId: ACCOUNT_2 }], 'run-2', T2);
    expect(await versions('project_roles')).toEqual(['1 owner basic_data.read,venues.read 01 02 run-1', '1 owner basic_data.read,venues.read 02 open run-2']);
    expect((await warehouse.readCursors('project-roles'))[0]).toMatchObject({ scopeId: PROJECT, cursorDate: '2026-01-01' });
  });
});

describe('accounts', () => {
  const account: AccountRow = {
    accountId: ACCOUNT_1,
    email: 'a@example.com',
    fullName: 'Ada',
    confirmedAt: '2025-06-01T10:00:00+00:00',
    language: 'en',
    rolesNames: ['STANDARD'],
    tags: [],
    createdById: null,
    isMe: true,
  };

  async function rows() {
    return warehouse.query(
      `SELECT account_id::VARCHAR AS id, email, is_me, roles_names, tags::VARCHAR AS tags, confirmed_at::VARCHAR AS confirmed_at,
         strftime(first_seen_at, '%d') AS first_seen, strftime(last_seen_at, '%d') AS last_seen, run_id
       FROM accounts ORDER BY account_id`,
    );
  }

  it('inserts, updates changed attributes, keeps first_seen_at, refreshes last_seen_at', async () => {
    expect(await commitAccounts([account], 'run-1', T1)).toBe(1);
    // Seen again in an id lookup (isMe false there): unchanged, still me.
    expect(await commitAccounts([{ ...account, isMe: false }], 'run-2', T2)).toBe(0);
    expect(await rows()).toEqual([
      {
        id: ACCOUNT_1,
        email: 'a@example.com',
        is_me: true,
        roles_names: ['STANDARD'],
        tags: '[]',
        confirmed_at: '2025-06-01 10:00:00+00',
        first_seen: '01',
        last_seen: '02',
        run_id: 'run-1',
      },
    ]);
    const other: AccountRow = { ...account, accountId: ACCOUNT_2, email: 'b@example.com', isMe: false };
    // One inserted, one updated.
    expect(await commitAccounts([{ ...account, rolesNames: ['ADMIN'] }, other], 'run-3', T3)).toBe(2);
    expect(await rows()).toEqual([
      {
        id: ACCOUNT_1,
        email: 'a@example.com',
        is_me: true,
        roles_names: ['ADMIN'],
        tags: '[]',
        confirmed_at: '2025-06-01 10:00:00+00',
        first_seen: '01',
        last_seen: '03',
        run_id: 'run-3',
      },
      {
        id: ACCOUNT_2,
        email: 'b@example.com',
        is_me: false,
        roles_names: ['STANDARD'],
        tags: '[]',
        confirmed_at: '2025-06-01 10:00:00+00',
        first_seen: '03',
        last_seen: '03',
        run_id: 'run-3',
      },
    ]);
    // The token now belongs to the other account: one `me` only.
    await commitAccounts([{ ...other, isMe: true }], 'run-4', T3);
    expect((await rows()).map((r) => r.is_me)).toEqual([false, true]);
  });
});

describe('snapshots in a group of slices', () => {
  const analytics = seriesSlice(VENUE_A, 'logins', '2026-01-01', '2026-01-01', [['logins', 'day', '2026-01-01T00:00:00Z', 5]]);
  const account: AccountRow = {
    accountId: ACCOUNT_1,
    email: 'a@example.com',
    fullName: 'Ada',
    confirmedAt: null,
    language: 'en',
    rolesNames: [],
    tags: [],
    createdById: null,
  };

  async function counts() {
    const [row] = await warehouse.query<{ points: number; roles: number; accounts: number }>(
      `SELECT (SELECT count(*) FROM series_points)::INTEGER AS points, (SELECT count(*) FROM venue_roles)::INTEGER AS roles,
         (SELECT count(*) FROM accounts)::INTEGER AS accounts`,
    );
    return row;
  }

  it('commit with the window rows of the group, each counted for its own slice, cursors moved', async () => {
    const result = await warehouse.commitSlices('run-1', [
      analytics,
      rolesSlice('venue', VENUE_A, [owner, reader], T1, { mode: 'advance', date: '2026-01-01' }),
      accountsSlice([account], T1),
    ]);
    expect(result).toMatchObject({ rowsWritten: 4, rowsBySlice: [1, 2, 1], cursorsMoved: 1 });
    expect(await counts()).toEqual({ points: 1, roles: 2, accounts: 1 });
    expect((await warehouse.readCursors('venue-roles'))[0]).toMatchObject({ scopeId: VENUE_A, cursorDate: '2026-01-01', runId: 'run-1' });
  });

  it('fail with the group: a snapshot that contradicts itself leaves nothing of the group written', async () => {
    const twice = rolesSlice('venue', VENUE_A, [owner, { ...owner, name: 'other name' }], T1);
    await expect(warehouse.commitSlices('run-1', [analytics, twice, accountsSlice([account], T1)])).rejects.toMatchObject({
      code: 'VENUE_WAREHOUSE_INVALID_BATCH',
    });
    expect(await counts()).toEqual({ points: 0, roles: 0, accounts: 0 });
  });
});
