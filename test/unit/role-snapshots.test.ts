/**
 * One row per role in a snapshot (a role listed twice with other content fails the slice, not
 * the run), and what a run says about the snapshots it held (docs/warehouse.md, "Roles").
 */
import { describe, expect, it } from 'vitest';
import { oneRowPerRole, type FoundRole, type RoleSnapshotRow } from '../../src/normalize/index.js';
import { HeldSnapshots, MAX_RECORDED } from '../../src/runner/held-snapshots.js';
import { ruleOf } from '../../src/errors/index.js';
import { snapshotsHeldOf, type SnapshotNote } from '../../src/warehouse/index.js';
import { captureLog } from '../api/helpers.js';

const ROLE = 'AB6E2C1A-0000-4000-8000-000000000001';
const row: RoleSnapshotRow = {
  roleId: ROLE,
  scopeId: '6f1c1a52-0000-4000-8000-00000000000a',
  accountId: '6f1c1a52-0000-4000-8000-0000000000a1',
  name: 'owner',
  inheritedFrom: null,
  permissions: ['a', 'b'],
};
const found = (where: string, changes: Partial<RoleSnapshotRow> = {}): FoundRole => ({ where, row: { ...row, ...changes } });

describe('oneRowPerRole', () => {
  it('keeps distinct roles in order', () => {
    const other = { ...row, roleId: ROLE.replace(/1$/, '2') };
    expect(oneRowPerRole('venue-roles', [found('page 1 data[0]'), { where: 'page 1 data[1]', row: other }])).toEqual([row, other]);
  });

  it('a role listed twice, in other letters, with the same content is one role', () => {
    const rows = oneRowPerRole('venue-roles', [found('page 1 data[0]'), found('page 2 data[0]', { roleId: ROLE.toLowerCase(), permissions: ['b', 'a'] })]);
    expect(rows).toEqual([row]);
  });

  it('a role listed twice with other content fails with VENUE_API_CONTRADICTORY_VALUES, a slice failure', () => {
    let error: unknown;
    try {
      oneRowPerRole('venue-roles', [found('page 1 data[0]'), found('page 2 data[1]', { roleId: ROLE.toLowerCase(), name: 'reader' })]);
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({
      code: 'VENUE_API_CONTRADICTORY_VALUES',
      message: `venue-roles: page 2 data[1].id repeats role ${ROLE.toLowerCase()} of page 1 data[0] with other content`,
    });
    expect(ruleOf(error).fatalForRun).toBe(false);
  });
});

describe('HeldSnapshots', () => {
  const note = (n: number, state: SnapshotNote['state'] = 'held'): SnapshotNote => ({
    state,
    stream: 'venue-roles',
    scope: `venue-${n}`,
    open: 5,
    wouldClose: 5,
    heldSince: '2026-01-02T02:15:00.000Z',
  });

  it('warns once per scope, records the held and confirmed snapshots in the detail, and sums them up in one summary line', () => {
    const log = captureLog('warn');
    const held = new HeldSnapshots(log.logger);
    held.note([note(1), note(2)]);
    held.note([note(3, 'confirmed')]);
    const lines = log.lines();
    expect(lines.map((line) => [line.code, line.scopeId])).toEqual([
      ['VENUE_ROLES_SNAPSHOT_HELD', 'venue-1'],
      ['VENUE_ROLES_SNAPSHOT_HELD', 'venue-2'],
      ['VENUE_ROLES_SNAPSHOT_HELD', 'venue-3'],
    ]);
    expect(lines[0]!.msg).toBe(
      "the API's venue-roles answer would close 5 of 5 open venue-roles of venue-1: held, not applied; a later run that reads the same answer applies it",
    );
    const detail = held.detail();
    expect(detail).toMatchObject({ snapshotsHeldTotal: 2, snapshotsConfirmedTotal: 1 });
    expect(snapshotsHeldOf(JSON.parse(JSON.stringify(detail)))).toEqual(
      [1, 2].map((n) => {
        const { state: _, ...record } = note(n);
        return record;
      }),
    );
    expect(held.warnings()).toEqual([
      "VENUE_ROLES_SNAPSHOT_HELD: 2 roles answers would close most of their scope's roles and were held, not applied: venue-roles venue-1 (5 of 5), venue-roles venue-2 (5 of 5); a later run that reads the same answer applies it",
    ]);
  });

  it(`keeps at most ${MAX_RECORDED} of each in the detail, with the exact total`, () => {
    const held = new HeldSnapshots(captureLog('silent').logger);
    held.note(Array.from({ length: 5_000 }, (_, n) => note(n)));
    const detail = held.detail();
    expect((detail.snapshotsHeld as unknown[]).length).toBe(MAX_RECORDED);
    expect(detail.snapshotsHeldTotal).toBe(5_000);
    expect(held.warnings()[0]).toContain(', and 4997 more;');
  });

  it('says nothing when nothing was held', () => {
    const held = new HeldSnapshots(captureLog('silent').logger);
    expect(held.detail()).toEqual({});
    expect(held.warnings()).toEqual([]);
    expect(snapshotsHeldOf({})).toEqual([]);
  });
});
