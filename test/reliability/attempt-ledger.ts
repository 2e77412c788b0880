/**
 * Reconciles the attempts the client made (its `api request` / `api retry` debug lines) with
 * the requests the simulator answered, URL by URL and without relying on timing or order: an
 * answer late by a loaded machine changes which attempt failed how, never whether every
 * attempt is explained. A failed attempt is explained by an injected fault of a kind that fails
 * that way, or by the client's own deadline (which may also cut an attempt before the
 * simulator read it); every request the simulator answered must be one of the client's attempts.
 */
import type { RecordedRequest } from '../../src/simulator/index.js';

/** How an attempt failed, as the client saw it: a status, a broken body, a network error or its deadline. */
type Failure = '429' | '500' | '502' | '503' | '504' | 'bad-body' | 'network' | 'timeout' | 'other';

/** The simulator's faults that make the client fail each way (a deadline can cut any answer). */
const EXPLAINED_BY: Readonly<Record<Exclude<Failure, 'timeout' | 'other'>, readonly string[]>> = {
  '429': ['429', 'rate-limit'],
  '500': ['500', 'errors-body'],
  '502': ['502'],
  '503': ['503'],
  '504': ['504'],
  'bad-body': ['malformed', 'truncate'],
  network: ['reset', 'truncate'],
};
const RESPONSE_FAULTS = new Set(Object.values(EXPLAINED_BY).flat().concat('slow'));

export interface Ledger {
  /** Successful attempts per URL: the calls the run made, whatever failed on the way. */
  readonly calls: ReadonlyMap<string, number>;
  /** Answers without a fault that the client's deadline cut (the machine was slow, not the API). */
  readonly unfaultedTimeouts: number;
  /** Client attempts the simulator never answered (cut before it read them, or a dead connection). */
  readonly unseenAttempts: number;
  /** `slow` answers the client gave up on at its deadline. */
  readonly slowAbandoned: number;
  /** 429/503 answers whose Retry-After the client never read (its deadline cut the attempt). */
  readonly retryAfterUnread: number;
  /** What does not add up, one line per URL: must be empty. */
  readonly unexplained: readonly string[];
}

interface ClientLine {
  readonly msg: string;
  readonly url: string;
  readonly status?: number;
  readonly code?: string;
}

const key = (r: RecordedRequest): string => (r.query ? `${r.path}?${r.query}` : r.path);

function clientLines(stderr: string): ClientLine[] {
  return stderr
    .split('\n')
    .filter((line) => line.includes('"api request"') || line.includes('"api retry"'))
    .map((line) => JSON.parse(line) as ClientLine);
}

function failureOf(line: ClientLine): Failure {
  if (line.code === 'VENUE_API_TIMEOUT') return 'timeout';
  if (line.code === 'VENUE_API_NETWORK') return 'network';
  if (line.code === 'VENUE_API_BAD_BODY') return 'bad-body';
  const status = String(line.status);
  return status in EXPLAINED_BY ? (status as Failure) : 'other';
}

export function reconcile(requests: readonly RecordedRequest[], stderr: string): Ledger {
  const answered = groupBy(requests, key, (r) => (r.fault !== undefined && RESPONSE_FAULTS.has(r.fault) ? r.fault : 'ok'));
  const lines = clientLines(stderr);
  const attempts = groupBy(
    lines.filter((l) => l.msg === 'api request'),
    (l) => l.url,
    () => 'attempt',
  );
  // Every failed attempt of a run that went on was retried: its `api retry` line says how it failed.
  const failures = groupBy(
    lines.filter((l) => l.msg === 'api retry'),
    (l) => l.url,
    failureOf,
  );
  const calls = new Map<string, number>();
  const totals = { unfaultedTimeouts: 0, unseenAttempts: 0, slowAbandoned: 0 };
  const unexplained: string[] = [];
  for (const url of new Set([...answered.keys(), ...attempts.keys()])) {
    const left = [...(answered.get(url) ?? [])];
    const failed = failures.get(url) ?? [];
    const successes = (attempts.get(url)?.length ?? 0) - failed.length;
    calls.set(url, successes);
    const unmatched: string[] = [];
    // Each way of failing takes the faults that explain it; a success takes a fault-free answer.
    for (const failure of failed.filter((f) => f !== 'timeout')) {
      const taken = failure === 'other' ? -1 : left.findIndex((kind) => EXPLAINED_BY[failure].includes(kind));
      if (taken >= 0) left.splice(taken, 1);
      else if (failure === 'network') totals.unseenAttempts += 1;
      else unmatched.push(`a ${failure} failure without such a fault`);
    }
    for (let i = 0; i < successes; i += 1) {
      const taken = left.indexOf('ok');
      if (taken >= 0) left.splice(taken, 1);
      else unmatched.push('a success without a fault-free answer');
    }
    // The deadline explains whatever is left, one answer per timeout.
    let timeouts = failed.filter((f) => f === 'timeout').length;
    for (const kind of left.splice(0, timeouts)) {
      timeouts -= 1;
      if (kind === 'ok') totals.unfaultedTimeouts += 1;
      if (kind === 'slow') totals.slowAbandoned += 1;
    }
    totals.unseenAttempts += timeouts;
    unmatched.push(...left.map((kind) => `${kind === 'ok' ? 'a fault-free' : `a ${kind}`} answer no attempt accounts for`));
    if (unmatched.length > 0) unexplained.push(`${url}: ${unmatched.join('; ')}`);
  }
  const read = (status: string): number => [...failures.values()].flat().filter((f) => f === status).length;
  const sent = (kind: string): number => requests.filter((r) => r.fault === kind).length;
  const retryAfterUnread = sent('429') + sent('503') - read('429') - read('503');
  return { calls, ...totals, retryAfterUnread, unexplained };
}

function groupBy<T, V>(items: readonly T[], keyOf: (item: T) => string, pick: (item: T) => V): Map<string, V[]> {
  const groups = new Map<string, V[]>();
  for (const item of items) groups.set(keyOf(item), [...(groups.get(keyOf(item)) ?? []), pick(item)]);
  return groups;
}
