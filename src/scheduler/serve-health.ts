import type { ReceiverStats } from '../receiver/index.js';

/** Something `serve` cannot do right now, as GET /healthz reports it. */
export interface HealthProblem {
  readonly component: 'receiver';
  readonly problem: string;
  /** The stable code of the error behind it (e.g. VENUE_WAREHOUSE_DISK_FULL). */
  readonly code: string | undefined;
  /** `CODE: message` and the hint of that error. */
  readonly reason: string;
  readonly since: string;
}

export interface ServeHealth {
  /** `degraded` while any problem lasts: the process lives and takes events, but something fails. */
  readonly status: 'ok' | 'degraded';
  readonly problems: readonly HealthProblem[];
}

/**
 * What /healthz says of the process beyond being alive. Merges failing in a row (a full disk, a
 * corrupt warehouse) make it `degraded`: events are acknowledged into the journal but reach no
 * table. It used to say `ok` throughout a full disk. A warehouse locked by another process is
 * normal (a sync in the CLI), not a problem.
 */
export function serveHealth(receiver: ReceiverStats | undefined): ServeHealth {
  const failing = receiver?.mergeFailing;
  if (failing === undefined) return { status: 'ok', problems: [] };
  const times = failing.merges === 1 ? 'once' : `${failing.merges} times in a row`;
  return {
    status: 'degraded',
    problems: [
      {
        component: 'receiver',
        problem: `merging the journal into the warehouse failed ${times}: accepted events wait in the journal`,
        code: failing.code,
        reason: failing.message,
        since: failing.since,
      },
    ],
  };
}
