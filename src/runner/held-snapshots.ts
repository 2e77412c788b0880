import type { Logger } from '../log/index.js';
import type { SnapshotHeld, SnapshotNote } from '../warehouse/index.js';

/**
 * Entries of each list kept in `sync_runs.detail`: a run in which the API answered every
 * venue's roles with an empty list would otherwise write one entry (~170 bytes) per venue,
 * 850 kB at 5,000 venues, into one row that `status` reads back. The totals stay exact, and
 * `role_snapshot_holds` lists every scope held now.
 */
export const MAX_RECORDED = 100;

export const SNAPSHOT_HELD_CODE = 'VENUE_ROLES_SNAPSHOT_HELD';

/**
 * The roles snapshots a run held back or applied after a hold (docs/warehouse.md, "Held snapshots"):
 * each is a warning in the log when its group commits, one line in the run summary, and a record
 * in `sync_runs.detail` (`snapshotsHeld`, `snapshotsConfirmed`) for a notification to pick up.
 */
export class HeldSnapshots {
  private readonly held: SnapshotHeld[] = [];
  private readonly confirmed: SnapshotHeld[] = [];
  private heldTotal = 0;
  private confirmedTotal = 0;

  constructor(private readonly log: Logger) {}

  note(notes: readonly SnapshotNote[]): void {
    for (const { state, ...record } of notes) {
      const fields = { code: SNAPSHOT_HELD_CODE, stream: record.stream, scopeId: record.scope, open: record.open, wouldClose: record.wouldClose };
      const answer = `the API's ${record.stream} answer would close ${record.wouldClose} of ${record.open} open ${record.stream} of ${record.scope}`;
      if (state === 'held') {
        this.heldTotal += 1;
        if (this.held.length < MAX_RECORDED) this.held.push(record);
        this.log.warn({ ...fields, heldSince: record.heldSince }, `${answer}: held, not applied; a later run that reads the same answer applies it`);
      } else {
        this.confirmedTotal += 1;
        if (this.confirmed.length < MAX_RECORDED) this.confirmed.push(record);
        this.log.warn({ ...fields, heldSince: record.heldSince }, `${answer}: read again since ${record.heldSince}, so applied`);
      }
    }
  }

  /** Merged into `sync_runs.detail`; nothing when nothing was held. */
  detail(): Record<string, unknown> {
    return {
      ...(this.heldTotal > 0 ? { snapshotsHeld: this.held, snapshotsHeldTotal: this.heldTotal } : {}),
      ...(this.confirmedTotal > 0 ? { snapshotsConfirmed: this.confirmed, snapshotsConfirmedTotal: this.confirmedTotal } : {}),
    };
  }

  /** One line for the run summary. */
  warnings(): string[] {
    if (this.heldTotal === 0) return [];
    const sample = this.held
      .slice(0, 3)
      .map((record) => `${record.stream} ${record.scope} (${record.wouldClose} of ${record.open})`)
      .join(', ');
    const more = this.heldTotal > 3 ? `, and ${this.heldTotal - 3} more` : '';
    return [
      `${SNAPSHOT_HELD_CODE}: ${this.heldTotal} roles answer${this.heldTotal === 1 ? '' : 's'} would close most of their scope's roles and ${this.heldTotal === 1 ? 'was' : 'were'} held, not applied: ${sample}${more}; a later run that reads the same answer applies it`,
    ];
  }
}
