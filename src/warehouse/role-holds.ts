import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { Session } from './session.js';
import { sql } from './sql-files.js';

export type RoleKind = 'venue' | 'project';

/**
 * A roles answer that was not applied, or was applied only now (docs/warehouse.md, "Held
 * snapshots"). The run records each in `sync_runs.detail.snapshotsHeld` /
 * `snapshotsConfirmed`, for a notification to pick up (event `snapshot.held`).
 */
export interface SnapshotHeld {
  /** `venue-roles` or `project-roles`. */
  readonly stream: string;
  /** The venue or project id. */
  readonly scope: string;
  /** Open role versions of the scope before the answer. */
  readonly open: number;
  /** Of those, the roles the answer lacks: what applying it closes. */
  readonly wouldClose: number;
  /** ISO instant of the first run that held this answer. */
  readonly heldSince: string;
}

/** What reading `sync_runs.detail` needs to accept (a boundary: zod). */
export const SnapshotHeldRecord = z.object({
  stream: z.string(),
  scope: z.string(),
  open: z.number().int().nonnegative(),
  wouldClose: z.number().int().nonnegative(),
  heldSince: z.string(),
});

/** The event a notification raises for a held snapshot. */
export const SNAPSHOT_HELD_EVENT = 'snapshot.held';

/** The held snapshots a run recorded in its detail (none when it held none). */
export function snapshotsHeldOf(detail: Readonly<Record<string, unknown>>): SnapshotHeld[] {
  return z
    .array(SnapshotHeldRecord)
    .catch([])
    .parse(detail.snapshotsHeld ?? []);
}

/** A held answer, as stored. */
export interface RoleHold {
  readonly digest: string;
  readonly open: number;
  readonly wouldClose: number;
  readonly heldSinceMs: number;
  readonly runId: string;
}

const StoredHold = z.object({
  kind: z.enum(['venue', 'project']),
  scope_id: z.string(),
  snapshot_digest: z.string(),
  open_roles: z.number(),
  would_close: z.number(),
  held_since_ms: z.number(),
  held_by_run: z.string(),
});

export function holdKey(kind: RoleKind, scopeId: string): string {
  return `${kind}|${scopeId.toLowerCase()}`;
}

/** Every held answer, by holdKey: one statement per group of slices, not per scope. */
export async function readRoleHolds(session: Pick<Session, 'all'>): Promise<Map<string, RoleHold>> {
  const rows = await session.all(sql('warehouse/role-holds-read.sql'));
  return new Map(
    rows.map((stored) => {
      const row = StoredHold.parse(stored);
      const hold = { digest: row.snapshot_digest, open: row.open_roles, wouldClose: row.would_close, heldSinceMs: row.held_since_ms, runId: row.held_by_run };
      return [holdKey(row.kind, row.scope_id), hold];
    }),
  );
}

/**
 * "Most" of a scope's roles: more than half. A venue whose only role goes is held too; one of
 * two roles going is not. An answer cut short after its first page of three is caught (two thirds
 * close); one cut after its second page of three is not (docs/warehouse.md says so).
 */
export function closesMost(open: number, wouldClose: number): boolean {
  return open > 0 && wouldClose * 2 > open;
}

export interface HoldInput {
  readonly kind: RoleKind;
  readonly scopeId: string;
  readonly open: number;
  readonly wouldClose: number;
  /** The answer's roles, canonical (lower-case ids, sorted permissions): what the digest covers. */
  readonly roles: readonly unknown[];
  readonly runId: string;
  readonly at: Date;
  /** The scope's held answer, if any. */
  readonly hold: RoleHold | undefined;
}

export type HoldDecision = { readonly state: 'apply' } | { readonly state: 'held' | 'confirmed'; readonly record: SnapshotHeld };

/**
 * Whether a roles answer is applied now (docs/warehouse.md, "Held snapshots"): an answer that closes
 * most of the scope's roles is held, and applied when a later run reads the very same answer
 * (`confirmed`). Any other answer is applied and drops the scope's hold.
 */
export async function decideHold(session: Session, input: HoldInput): Promise<HoldDecision> {
  const { kind, scopeId, hold } = input;
  if (!closesMost(input.open, input.wouldClose)) {
    if (hold) await session.run(sql('warehouse/role-hold-forget.sql'), [kind, scopeId]);
    return { state: 'apply' };
  }
  const digest = snapshotDigest(input.roles);
  const same = hold !== undefined && hold.digest === digest;
  const heldSince = new Date(same ? hold.heldSinceMs : input.at.getTime());
  const record: SnapshotHeld = { stream: `${kind}-roles`, scope: scopeId, open: input.open, wouldClose: input.wouldClose, heldSince: heldSince.toISOString() };
  await session.run(sql('warehouse/role-hold-forget.sql'), [kind, scopeId]);
  // A later run read the same answer: taken at its word. The same run twice proves nothing.
  if (same && hold.runId !== input.runId) return { state: 'confirmed', record };
  await session.run(sql('warehouse/role-hold-save.sql'), [kind, scopeId, digest, input.open, input.wouldClose, heldSince.toISOString(), input.runId]);
  return { state: 'held', record };
}

/** 28 characters whatever the answer's size. */
function snapshotDigest(roles: readonly unknown[]): string {
  return createHash('sha1').update(JSON.stringify(roles)).digest('base64');
}
