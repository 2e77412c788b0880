/**
 * The reconciliation the HTTP fault matrix relies on: what a loaded machine may do (a deadline
 * cutting a fault-free answer, an attempt cut before the simulator read it, answers logged out
 * of order) is explained; what the client must not do (read a slow body to its end, fail on a
 * fault-free answer, take a faulted answer for a success) is not.
 */
import { describe, expect, it } from 'vitest';
import type { RecordedRequest } from '../../src/simulator/index.js';
import { reconcile } from './attempt-ledger.js';

const URL = '/analytics/venue-devices-history/v1/?from=2026-01-01&to=2026-01-05';
const [PATH, QUERY] = URL.split('?') as [string, string];

const answered = (...faults: (string | undefined)[]): RecordedRequest[] =>
  faults.map((fault, i) => ({
    method: 'GET',
    path: PATH,
    query: QUERY,
    headers: {},
    status: fault === 'reset' ? 0 : 200,
    ...(fault === undefined ? {} : { fault }),
    attempt: i + 1,
    at: new Date(Date.UTC(2026, 0, 6, 12, 0, i)).toISOString(),
  }));

/** The client's debug lines: one `api request` per attempt, one `api retry` per failed one. */
function clientLog(...outcomes: ({ status?: number; code?: string } | 'ok')[]): string {
  return outcomes
    .flatMap((outcome, i) => {
      const request = { msg: 'api request', url: URL, attempt: i + 1, ms: 5, ...(outcome === 'ok' ? { status: 200 } : outcome) };
      return outcome === 'ok' ? [request] : [request, { msg: 'api retry', url: URL, attempt: i + 1, ...outcome }];
    })
    .map((line) => JSON.stringify(line))
    .join('\n');
}

const TIMEOUT = { code: 'VENUE_API_TIMEOUT' };

describe('reconciling attempts with answers', () => {
  it('explains each fault by the failure it causes, in any order', () => {
    const ledger = reconcile(
      answered('500', 'errors-body', 'truncate', undefined),
      clientLog({ status: 500, code: 'VENUE_API_SERVER_ERROR' }, { code: 'VENUE_API_BAD_BODY' }, { status: 500, code: 'VENUE_API_SERVER_ERROR' }, 'ok'),
    );
    expect(ledger).toMatchObject({ unexplained: [], unfaultedTimeouts: 0, unseenAttempts: 0 });
    expect(ledger.calls.get(URL)).toBe(1);
  });

  it('explains a fault-free answer cut by the deadline, and an attempt the simulator never read', () => {
    const ledger = reconcile(answered(undefined, '429', undefined), clientLog(TIMEOUT, TIMEOUT, TIMEOUT, 'ok'));
    expect(ledger).toMatchObject({ unexplained: [], unfaultedTimeouts: 1, unseenAttempts: 1, retryAfterUnread: 1 });
  });

  it('counts slow answers given up at the deadline', () => {
    expect(reconcile(answered('slow', undefined), clientLog(TIMEOUT, 'ok'))).toMatchObject({ unexplained: [], slowAbandoned: 1 });
  });

  it('flags a slow body read to its end, a failure without a fault, and a faulted answer taken for a success', () => {
    expect(reconcile(answered('slow'), clientLog('ok')).unexplained).toEqual([
      `${URL}: a success without a fault-free answer; a slow answer no attempt accounts for`,
    ]);
    expect(reconcile(answered(undefined, undefined), clientLog({ status: 502, code: 'VENUE_API_SERVER_ERROR' }, 'ok')).unexplained).toHaveLength(1);
    expect(reconcile(answered('malformed'), clientLog('ok')).unexplained).toHaveLength(1);
    // An attempt the client never made: the simulator answered more than the client sent.
    expect(reconcile(answered(undefined, undefined), clientLog('ok')).unexplained).toEqual([`${URL}: a fault-free answer no attempt accounts for`]);
  });
});
