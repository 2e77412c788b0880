import { z } from 'zod';
import { EtlError } from '../errors/index.js';
import { CalendarDate, todayUtc } from '../calendar/index.js';
import type { FaultSpec } from './faults/fault-spec.js';
import { RATE_LIMIT_HEADER_STYLES, type RateLimitHeaderStyle } from './http/rate-limit-headers.js';
import type { RecordedRequest } from './http/request-log.js';

export interface SimulatorOptions {
  /** Everything the world holds and serves derives from it. Default 1. */
  readonly seed?: number;
  /** Number of venues, spread over projects (one project per three venues). Default 5. */
  readonly venues?: number;
  /** Days of history the world has, ending today. Default 90. */
  readonly days?: number;
  /** The bearer token the API requires. Default `sim-token`. */
  readonly token?: string;
  /** Fixed delay added to every API response. Default 0. */
  readonly latencyMs?: number;
  /**
   * Requests per second the API allows per bearer token (a token bucket); beyond it a 429 with
   * Retry-After. Default none (unlimited).
   */
  readonly rateLimit?: number;
  /** Requests the bucket holds (the burst allowed at once). Default a fifth of `rateLimit`, at least 1. */
  readonly rateLimitBurst?: number;
  /**
   * Tells the rate limit in every answer's headers: `ietf` (`RateLimit-Policy` and `RateLimit`,
   * the IETF draft) or `x` (`X-RateLimit-Limit/-Remaining/-Reset`). Default: not told.
   */
  readonly rateLimitHeaders?: RateLimitHeaderStyle;
  /** Seeded faults, e.g. `429=0.1,reset=0.02@venue-roles,retry-after=2`. Default none. */
  readonly faults?: string | FaultSpec;
  /** Late data: each `revise()` changes the values of today and the N days before it. */
  readonly reviseRecentDays?: number;
  /** `YYYY-MM-DD` (UTC); default the real current UTC date. Fix it for reproducible tests. */
  readonly today?: string;
  /** Largest `page[size]` served; asking for more gets this many. Default 100. */
  readonly maxPageSize?: number;
  /** Page size without `page[size]`. Default 20. */
  readonly defaultPageSize?: number;
  /** Default 0 (a free port). */
  readonly port?: number;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /**
   * Where the time of day of the simulated clock (the `Date` header: `today` at that time) comes
   * from. Default: the machine's clock. Fix it for tests that compare a client's clock with it.
   */
  readonly clock?: () => Date;
  /** Called after each API request is answered (for logging). */
  readonly onRequest?: (request: RecordedRequest) => void;
}

const OptionsSchema = z.object({
  seed: z.number().int().default(1),
  venues: z.number().int().min(1).max(10_000).default(5),
  days: z.number().int().min(1).max(36_600).default(90),
  token: z.string().min(1).default('sim-token'),
  latencyMs: z.number().int().min(0).max(600_000).default(0),
  rateLimit: z.number().positive().max(1_000_000).optional(),
  rateLimitBurst: z.number().int().min(1).max(1_000_000).optional(),
  rateLimitHeaders: z.enum(RATE_LIMIT_HEADER_STYLES).optional(),
  reviseRecentDays: z.number().int().min(0).max(36_600).default(0),
  today: CalendarDate.optional(),
  maxPageSize: z.number().int().min(1).max(100_000).default(100),
  defaultPageSize: z.number().int().min(1).max(100_000).default(20),
  port: z.number().int().min(0).max(65_535).default(0),
  host: z.string().min(1).default('127.0.0.1'),
});

export type ResolvedOptions = z.infer<typeof OptionsSchema> & { readonly today: string };

/** Applies defaults and reports every bad option at once (exit 2 from the CLI). */
export function resolveOptions(options: SimulatorOptions = {}): ResolvedOptions {
  const { faults: _faults, onRequest: _onRequest, clock: _clock, ...plain } = options;
  const parsed = OptionsSchema.safeParse(plain);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new EtlError('VENUE_SIM_OPTIONS', `invalid simulator options: ${problems.join('; ')}`);
  }
  const resolved = { ...parsed.data, today: parsed.data.today ?? todayUtc() };
  if (resolved.defaultPageSize > resolved.maxPageSize) {
    throw new EtlError('VENUE_SIM_OPTIONS', `defaultPageSize (${resolved.defaultPageSize}) exceeds maxPageSize (${resolved.maxPageSize})`);
  }
  for (const name of ['rateLimitBurst', 'rateLimitHeaders'] as const) {
    if (resolved[name] !== undefined && resolved.rateLimit === undefined) {
      throw new EtlError('VENUE_SIM_OPTIONS', `${name} needs rateLimit (the requests per second allowed)`);
    }
  }
  return resolved;
}
