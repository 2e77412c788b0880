import { hashString, mix, unit } from '../hash.js';
import {
  HOSTILE_FAULTS,
  RESPONSE_FAULTS,
  type DriftFault,
  type FaultKind,
  type FaultRule,
  type FaultSpec,
  type HostileFault,
  type ResponseFault,
} from './fault-spec.js';

export interface FaultDecision {
  readonly response?: ResponseFault;
  readonly drifts: readonly DriftFault[];
  readonly hostile: readonly HostileFault[];
}

const isResponseFault = (kind: string): kind is ResponseFault => (RESPONSE_FAULTS as readonly string[]).includes(kind);
const isHostileFault = (kind: FaultKind): kind is HostileFault => (HOSTILE_FAULTS as readonly string[]).includes(kind);
const RESPONSE_LABEL = hashString('response');
// Its own draw: adding a schedule to a spec leaves the draws of its other rules as they were.
const SCHEDULED_LABEL = hashString('scheduled response');

/**
 * Which faults hit a request: a pure function of (seed, rule kind, URL, n) where n counts the
 * requests for this URL so far. Concurrency and arrival order cannot change the outcome, and a
 * retry of the same URL (next n) gets a fresh draw. Response faults share one draw laid out on
 * [0, 1) in spec order, so each kind hits at exactly its rate; the rules scheduled for this
 * attempt (`#N`, N = n + 1) are decided first on a draw of their own, the others only when no
 * scheduled one hit. Each drift and hostile-answer kind draws on its own.
 */
export function decideFaults(seed: number, spec: FaultSpec, url: string, stream: string, n: number): FaultDecision {
  const urlHash = hashString(url);
  const applicable = spec.rules.filter(
    (rule) => rule.rate > 0 && (rule.stream === undefined || rule.stream === stream) && (rule.attempt === undefined || rule.attempt === n + 1),
  );
  const responses = applicable.filter((rule) => isResponseFault(rule.kind));
  const response =
    drawResponse(
      unit(mix(seed, SCHEDULED_LABEL, urlHash, n)),
      responses.filter((rule) => rule.attempt !== undefined),
    ) ??
    drawResponse(
      unit(mix(seed, RESPONSE_LABEL, urlHash, n)),
      responses.filter((rule) => rule.attempt === undefined),
    );
  const drifts = new Set<DriftFault>();
  const hostile = new Set<HostileFault>();
  const hits = (kind: FaultKind, rate: number): boolean => unit(mix(seed, hashString(kind), urlHash, n)) < rate;
  for (const { kind, rate } of applicable) {
    if (isResponseFault(kind)) continue;
    if (isHostileFault(kind)) {
      if (!hostile.has(kind) && hits(kind, rate)) hostile.add(kind);
    } else if (!drifts.has(kind) && hits(kind, rate)) drifts.add(kind);
  }
  return { ...(response === undefined ? {} : { response }), drifts: [...drifts], hostile: [...hostile] };
}

/** The response fault a draw `u` in [0, 1) lands on, the rules' rates laid end to end in spec order. */
function drawResponse(u: number, rules: readonly FaultRule[]): ResponseFault | undefined {
  let edge = 0;
  for (const rule of rules) {
    edge += rule.rate;
    if (u < edge) return rule.kind as ResponseFault;
  }
  return undefined;
}
