import { z } from 'zod';
import { EtlError } from '../../errors/index.js';
import { SERIES_STREAMS, SUMMARY_STREAMS } from '../truth/streams.js';

/** Faults that replace the whole answer; at most one per request. */
export const RESPONSE_FAULTS = ['429', '500', '502', '503', '504', 'reset', 'truncate', 'slow', 'malformed', 'errors-body'] as const;
export type ResponseFault = (typeof RESPONSE_FAULTS)[number];

/** Schema drift applied to the resources of a successful answer; several may combine. */
const DRIFT_FAULTS = ['drift-extra', 'drift-missing', 'drift-string-number', 'drift-null-id', 'drift-version'] as const;
export type DriftFault = (typeof DRIFT_FAULTS)[number];

/**
 * Hostile answers: a 200 whose document is well-formed but lies — too few points, another
 * venue's resource, day midnights in another offset, a repeated timestamp, impossible values.
 * Applied after drift, to every answer they fit; several may combine.
 */
export const HOSTILE_FAULTS = [
  'empty-series',
  'short-series',
  'empty-list',
  'wrong-scope',
  'offset',
  'repeat-point',
  'negative-count',
  'fractional-count',
  'huge-count',
  'unsafe-count',
  'rate-high',
  'rate-negative',
] as const;
export type HostileFault = (typeof HOSTILE_FAULTS)[number];

export type FaultKind = ResponseFault | DriftFault | HostileFault;
export const FAULT_KINDS: readonly FaultKind[] = [...RESPONSE_FAULTS, ...DRIFT_FAULTS, ...HOSTILE_FAULTS];

/** Path segments a rule can be scoped to with `@stream`. */
export const FAULT_STREAMS: readonly string[] = [
  ...SERIES_STREAMS,
  ...SUMMARY_STREAMS,
  'rating-statistics-summaries',
  'venue-roles',
  'project-roles',
  'filtered-accounts',
];

export interface FaultRule {
  readonly kind: FaultKind;
  /** Probability per request, 0..1. */
  readonly rate: number;
  /** Only requests to this stream (path segment); all API requests when absent. */
  readonly stream?: string;
  /**
   * Only the N-th request of a URL (1: the first; a retry is the next). Such a rule is a
   * schedule: decided before the rules without one (see decideFaults), so `500=1#1` makes
   * every URL fail once, whatever else the spec draws.
   */
  readonly attempt?: number;
}

export interface FaultSpec {
  readonly rules: readonly FaultRule[];
  /** `Retry-After` of a 429, in seconds. Default 1. */
  readonly retryAfterSeconds?: number;
  /** How long a `slow` answer drips its body. Default 3000. */
  readonly slowMs?: number;
  /** Offset the `offset` kind writes timestamps in, `±HH:MM`. Default `+02:00`. */
  readonly utcOffset?: string;
}

export const DEFAULT_UTC_OFFSET = '+02:00';
const UTC_OFFSET = /^[+-](0\d|1[0-4]):[0-5]\d$/;

const NO_FAULTS: FaultSpec = { rules: [] };

/** Highest `#ATTEMPT`; venue-etl itself makes at most 21 attempts (api.maxRetries is at most 20). */
const MAX_ATTEMPT = 100;

export const FAULT_SPEC_GRAMMAR =
  'comma-separated KIND=RATE[@STREAM][#ATTEMPT] (RATE 0..1; #N: only the N-th request of a URL), retry-after=SECONDS, slow-ms=MS, ' +
  `utc-offset=±HH:MM; KIND one of ${FAULT_KINDS.join(', ')}; e.g. 429=0.1,500=0.05,reset=0.02@venue-roles,503=1@venue-roles#1,retry-after=2`;

export class FaultSpecError extends EtlError {
  constructor(readonly problems: readonly string[]) {
    super('VENUE_SIM_FAULTS', `invalid fault spec: ${problems.join('; ')}`, { hint: FAULT_SPEC_GRAMMAR });
    this.name = 'FaultSpecError';
  }
}

const FaultSpecSchema = z.object({
  rules: z.array(
    z.object({
      kind: z.enum(FAULT_KINDS as [FaultKind, ...FaultKind[]]),
      rate: z.number().min(0).max(1),
      stream: z
        .string()
        .refine((s) => FAULT_STREAMS.includes(s), 'unknown stream')
        .optional(),
      attempt: z.number().int().min(1).max(MAX_ATTEMPT).optional(),
    }),
  ),
  retryAfterSeconds: z.number().int().min(0).max(86_400).optional(),
  slowMs: z.number().int().min(0).max(600_000).optional(),
  utcOffset: z.string().regex(UTC_OFFSET, 'must be ±HH:MM').optional(),
});

/** Parses the text form, reporting every problem at once. `""` and `none` mean no faults. */
export function parseFaultSpec(text: string): FaultSpec {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed === 'none') return NO_FAULTS;
  const problems: string[] = [];
  const rules: FaultRule[] = [];
  let retryAfterSeconds: number | undefined;
  let slowMs: number | undefined;
  let utcOffset: string | undefined;
  for (const item of trimmed.split(',').map((part) => part.trim())) {
    const match = /^([a-z0-9-]+)=([^@#]*)(?:@([^#]*))?(?:#(.*))?$/.exec(item);
    if (!match) {
      problems.push(`"${item}" is not KIND=RATE[@STREAM][#ATTEMPT]`);
      continue;
    }
    const [, name = '', value = '', stream, attemptText] = match;
    const qualified = stream !== undefined || attemptText !== undefined;
    if (name === 'retry-after' || name === 'slow-ms') {
      const number = /^\d+$/.test(value) ? Number(value) : NaN;
      if (qualified || Number.isNaN(number)) problems.push(`${name} needs a whole number, got "${item}"`);
      else if (name === 'retry-after') retryAfterSeconds = number;
      else slowMs = number;
      continue;
    }
    if (name === 'utc-offset') {
      if (qualified || !UTC_OFFSET.test(value)) problems.push(`utc-offset needs ±HH:MM (up to ±14:00), got "${item}"`);
      else utcOffset = value;
      continue;
    }
    if (!(FAULT_KINDS as readonly string[]).includes(name)) {
      problems.push(`unknown fault kind "${name}"`);
      continue;
    }
    const rate = /^(0|1|0?\.\d+|[01]\.\d*)$/.test(value) ? Number(value) : NaN;
    if (!(rate >= 0 && rate <= 1)) problems.push(`rate of ${name} must be a number from 0 to 1, got "${value}"`);
    if (stream !== undefined && !FAULT_STREAMS.includes(stream)) {
      problems.push(`unknown stream "${stream}" in "${item}" (one of ${FAULT_STREAMS.join(', ')})`);
    }
    const attempt = attemptText === undefined ? undefined : /^[1-9]\d*$/.test(attemptText) ? Number(attemptText) : NaN;
    if (attempt !== undefined && !(attempt <= MAX_ATTEMPT)) problems.push(`#ATTEMPT of ${name} must be a whole number from 1 to ${MAX_ATTEMPT}, got "${item}"`);
    rules.push({ kind: name as FaultKind, rate, ...(stream === undefined ? {} : { stream }), ...(attempt === undefined ? {} : { attempt }) });
  }
  if (problems.length > 0) throw new FaultSpecError(problems);
  return checked({
    rules,
    ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
    ...(slowMs === undefined ? {} : { slowMs }),
    ...(utcOffset === undefined ? {} : { utcOffset }),
  });
}

/** Accepts the text form or an object (validated: it may come from a control request). */
export function toFaultSpec(input: string | FaultSpec | undefined): FaultSpec {
  if (input === undefined) return NO_FAULTS;
  if (typeof input === 'string') return parseFaultSpec(input);
  const parsed = FaultSpecSchema.safeParse(input);
  if (!parsed.success) throw new FaultSpecError(parsed.error.issues.map((i) => `${i.path.join('.') || 'spec'}: ${i.message}`));
  return checked(parsed.data as FaultSpec);
}

/**
 * Response faults are exclusive: on any one stream their rates must fit into 1 — those of the
 * rules without `#ATTEMPT` together, and those scheduled for each attempt together (a schedule
 * is decided first, the rest only when it did not hit).
 */
function checked(spec: FaultSpec): FaultSpec {
  const exclusive = spec.rules.filter((rule) => (RESPONSE_FAULTS as readonly string[]).includes(rule.kind));
  const scopes = new Set<string | undefined>([undefined, ...exclusive.map((rule) => rule.stream)]);
  const attempts = new Set<number | undefined>([undefined, ...exclusive.map((rule) => rule.attempt)]);
  for (const scope of scopes) {
    for (const attempt of attempts) {
      const sum = exclusive
        .filter((rule) => (rule.stream === undefined || rule.stream === scope) && rule.attempt === attempt)
        .reduce((acc, rule) => acc + rule.rate, 0);
      if (sum > 1 + 1e-9) {
        const where = `${scope ? ` on ${scope}` : ''}${attempt ? ` at #${attempt}` : ''}`;
        throw new FaultSpecError([`response fault rates add up to ${sum.toFixed(3)} (more than 1)${where}`]);
      }
    }
  }
  return spec;
}
