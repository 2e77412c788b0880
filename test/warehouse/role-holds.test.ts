/**
 * Held roles snapshots (docs/warehouse.md, "Held snapshots"): an answer that would close most of a
 * scope's open roles is not applied until a later run reads the very same answer.
 */
import { describe, expect, it } from 'vitest';
import { closesMost } from '../../src/warehouse/role-holds.js';
import type { RoleKind, RoleRow, SliceCommit, Warehouse } from '../../src/warehouse/index.js';
import { PROJECT, useFreshWarehouse, VENUE_A } from './helpers.js';

let warehouse: Warehouse;
useFreshWarehouse((w) => (warehouse = w));

const role = (n: number, name = 'reader'): RoleRow => ({
  roleId: `00000000-0000-4000-8000-00000000000${n}`,
  accountId: `00000000-0000-4000-8000-0000000000a${n}`,
  name,
  inheritedFrom: null,
  permissions: ['venues.read'],
});
const FOUR = [role(1), role(2), role(3), role(4)];
const T1 = new Date('2026-01-01T02:15:00Z');
const T2 = new Date('2026-01-02T02:15:00Z');
const T3 = new Date('2026-01-03T02:15:00Z');
const T4 = new Date('2026-01-04T02:15:00Z');

function slice(rows: readonly RoleRow[], at: Date, kind: RoleKind = 'venue', scopeId = VENUE_A): SliceCommit {
  const day = at.toISOString().slice(0, 10);
  return { stream: `${kind}-roles`, scopeId, windowFrom: day, windowTo: day, roles: { kind, rows, at } };
}

async function commit(runId: string, ...slices: SliceCommit[]) {
  return warehouse.commitSlices(runId, slices);
}

async function openRoles(table = 'current_venue_roles'): Promise<number> {
  const [row] = await warehouse.query<{ n: number }>(`SELECT count(*)::INTEGER AS n FROM ${table}`);
  return row!.n;
}

async function holds(): Promise<Record<string, unknown>[]> {
  return warehouse.query(
    `SELECT kind, scope_id::VARCHAR AS scope, open_roles, would_close, strftime(held_since, '%d') AS since, held_by_run FROM role_snapshot_holds ORDER BY kind`,
  );
}

describe('closesMost', () => {
  it('more than half of the open roles; nothing open, nothing to hold', () => {
    expect(
      [
        [0, 0],
        [1, 0],
        [1, 1],
        [2, 1],
        [2, 2],
        [3, 1],
        [3, 2],
        [13, 7],
        [13, 6],
      ].map(([open, close]) => closesMost(open!, close!)),
    ).toEqual([false, false, true, false, true, false, true, true, false]);
  });
});

describe('a roles answer that would close most of the open roles', () => {
  it('is held (nothing written), then applied when a later run reads the same answer', async () => {
    await commit('run-1', slice(FOUR, T1));
    const held = await commit('run-2', slice([role(1)], T2));
    expect(held.rowsWritten).toBe(0);
    expect(held.snapshots).toEqual([{ state: 'held', stream: 'venue-roles', scope: VENUE_A, open: 4, wouldClose: 3, heldSince: T2.toISOString() }]);
    expect(await openRoles()).toBe(4);
    expect(await holds()).toEqual([{ kind: 'venue', scope: VENUE_A, open_roles: 4, would_close: 3, since: '02', held_by_run: 'run-2' }]);

    // The same permissions in another order are the same answer.
    const confirmed = await commit('run-3', slice([{ ...role(1), permissions: ['venues.read', 'venues.read'] }], T3));
    expect(confirmed.snapshots).toEqual([{ state: 'confirmed', stream: 'venue-roles', scope: VENUE_A, open: 4, wouldClose: 3, heldSince: T2.toISOString() }]);
    expect(confirmed.rowsWritten).toBe(3);
    expect(await openRoles()).toBe(1);
    expect(await holds()).toEqual([]);
    const [closed] = await warehouse.query<{ at: string }>(`SELECT DISTINCT strftime(valid_to, '%d') AS at FROM venue_roles WHERE valid_to IS NOT NULL`);
    // Closed at the confirming run's instant: until then the warehouse said they were current.
    expect(closed!.at).toBe('03');
  });

  it('the same run reading it twice does not confirm it', async () => {
    await commit('run-1', slice(FOUR, T1));
    await commit('run-2', slice([], T2));
    const again = await commit('run-2', slice([], T2));
    expect(again.snapshots.map((note) => note.state)).toEqual(['held']);
    expect(await openRoles()).toBe(4);
  });

  it('another shrunken answer starts the hold again; an answer that closes less drops it', async () => {
    await commit('run-1', slice(FOUR, T1));
    await commit('run-2', slice([], T2));
    const other = await commit('run-3', slice([role(4)], T3));
    expect(other.snapshots).toEqual([{ state: 'held', stream: 'venue-roles', scope: VENUE_A, open: 4, wouldClose: 3, heldSince: T3.toISOString() }]);
    expect(await openRoles()).toBe(4);
    // Two of four go: half, not most — applied at once, and the hold is gone.
    const half = await commit('run-4', slice([role(1), role(2)], T4));
    expect(half.snapshots).toEqual([]);
    expect(half.rowsWritten).toBe(2);
    expect(await holds()).toEqual([]);
  });

  it('an honest answer in between drops the hold: the same shrunken answer after it is held anew', async () => {
    await commit('run-1', slice(FOUR, T1));
    await commit('run-2', slice([], T2));
    // The honest answer comes back: nothing changes, and the hold is dropped.
    const honest = await commit('run-3', slice(FOUR, T3));
    expect(honest.rowsWritten).toBe(0);
    expect(await holds()).toEqual([]);
    // The empty answer again: held anew, not confirmed by the hold of run-2.
    const empty = await commit('run-4', slice([], T4));
    expect(empty.snapshots.map((note) => note.state)).toEqual(['held']);
    expect(await openRoles()).toBe(4);
  });

  it('project roles and venue roles are held per scope, in one group commit', async () => {
    await commit('run-1', slice(FOUR, T1), slice(FOUR, T1, 'project', PROJECT));
    const group = await commit('run-2', slice(FOUR.slice(0, 3), T2), slice([], T2, 'project', PROJECT));
    expect(group.snapshots).toEqual([{ state: 'held', stream: 'project-roles', scope: PROJECT, open: 4, wouldClose: 4, heldSince: T2.toISOString() }]);
    expect(await openRoles()).toBe(3);
    expect(await openRoles('current_project_roles')).toBe(4);
  });

  it('a first answer for a scope with no open roles is never held', async () => {
    const first = await commit('run-1', slice(FOUR, T1));
    expect(first.snapshots).toEqual([]);
    expect(first.rowsWritten).toBe(4);
  });
});
