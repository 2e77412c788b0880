import { z } from 'zod';
import { UserEndpointRow } from '../catalogue/index.js';
import { CalendarDate, isTimeZone } from '../calendar/index.js';
import { LOG_LEVELS } from '../log/index.js';
import { S3Settings } from '../lake/settings.js';
import { isSize, sizeInBytes } from '../infra/memory-size.js';
import { splitVenueEntries, uuid, VenueEntries } from './venue-entries.js';

const isoDate = CalendarDate;

/**
 * The smallest warehouse.memoryLimit accepted. A write run's own working set in DuckDB (staged
 * rows, the commit's joins, rows not yet checkpointed) peaked at 50-75 MB at 1,000-5,000 venues;
 * a 7-day backfill of 1,000 venues into a 28-day warehouse took 27 s at 48MB, 41 s at 40MB, and
 * had not ended after 9 minutes at full CPU at 32MB (docs/scaling.md, "Memory"). 64MB keeps a
 * margin over that cliff, which moves with the size of a commit (hourly rows are 24 a day).
 */
export const MIN_MEMORY_LIMIT_BYTES = 64_000_000;

const positiveInt = (max: number) => z.number().int().min(1).max(max);

const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' });

/** Events a webhook can be sent (docs/operations.md, "Notifications"). */
export const NOTIFY_EVENTS = ['run.failed', 'run.partial', 'run.recovered', 'stream.stale', 'schema.drift', 'receiver.journal_full', 'snapshot.held'] as const;
export type NotifyEvent = (typeof NOTIFY_EVENTS)[number];

/**
 * A read's memory: the heaviest report on a year of 1,000 venues (1.1M rows) needs a few
 * hundred MB to sort and return; 1GB leaves room on a 2 GB host (docs/lake.md, "Read limits").
 */
export const DEFAULT_QUERY_MEMORY_LIMIT = '1GB';
/** Reports on a year of 1,000 venues take seconds; 5 minutes stops a runaway query, not a real one. */
export const DEFAULT_QUERY_TIMEOUT_SECONDS = 300;

/**
 * 1 GiB of journal: about a million events of ~1 KB, hours of the platform's peak rate and days
 * of a normal one while the warehouse stays locked; the merge takes ~20,000 events/s (B6).
 */
const DEFAULT_MAX_JOURNAL_BYTES = 1_073_741_824;

const HORIZON_DAYS = 'must be a whole number of days from 1 to 3660 (default 92: day summaries for the last quarter)';

export const SummaryGrain = z.enum(['day', 'month']);
export type SummaryGrain = z.infer<typeof SummaryGrain>;

/** Grains of the history streams: days (windows of two days or more) and hours (one request per day). */
export const HistoryGrain = z.enum(['day', 'hour']);
export type HistoryGrain = z.infer<typeof HistoryGrain>;

const ApiSchema = z.strictObject({
  baseUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  token: z.string().min(1, 'must not be empty'),
  /** Ceiling of requests in flight; the client finds how many help below it (docs/rate-limits.md). */
  concurrency: positiveInt(256).default(64),
  pageSize: positiveInt(1000).default(100),
  /** Pages one list may take; a longer list fails its slice (default: see DEFAULT_MAX_PAGES). */
  maxPages: positiveInt(1_000_000).default(1_000),
  timeoutMs: z.number().int().min(100).max(600_000).default(30_000),
  /**
   * Largest answer read, as sent and decoded; a larger one fails its slice (default: see
   * DEFAULT_MAX_RESPONSE_BYTES). At most 256 MiB: V8 strings end at ~512 M characters.
   */
  maxResponseBytes: z.number().int().min(1024).max(268_435_456).default(33_554_432),
  maxRetries: z.number().int().min(0).max(20).default(6),
  /** Longest Retry-After the client will honour before giving the slice up. */
  maxRetryAfterMs: z.number().int().min(0).max(3_600_000).default(120_000),
  /** Optional budget of requests per second across all workers. */
  maxRequestsPerSecond: z.number().positive().optional(),
  /** Account ids per `filter[id][in]` request (keeps URLs short). */
  accountsBatchSize: positiveInt(200).default(50),
});

/** `parquet.writer`: part of object and file names in a shared lake (docs/parquet.md, "Writers and shards: one lake"). */
const WRITER_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/;

export const ConfigSchema = z.strictObject({
  /** Needed by the commands that call the API (sync, backfill, serve); see `requireApi`. */
  api: ApiSchema.optional(),
  scope: z
    .strictObject({
      /** Venue ids, or `{"id", "name"}` entries: read as `venues` (the ids) and `venueNames`. */
      venues: VenueEntries.default([]),
      projects: z.array(uuid).default([]),
    })
    .transform(({ venues, projects }) => ({ ...splitVenueEntries(venues), projects }))
    .prefault({}),
  sync: z
    .strictObject({
      startDate: isoDate.optional(),
      lookbackDays: z.number().int().min(0).max(365).default(3),
      windowDays: positiveInt(3660).default(31),
      streams: z.array(z.string().min(1)).min(1).optional(),
      /**
       * 'tiered': day summaries for the last `dayHorizonDays` (from the first day of the month
       * holding the horizon's first day), whole calendar months before; 'day', 'month' or both: that
       * grain for every period. Day summaries are one request per venue, stream and day: 98 % of a
       * two-year backfill's requests (4.48M for 1,000 venues) when every period is a day.
       */
      summaryGrain: z.union([z.literal('tiered'), SummaryGrain, z.array(SummaryGrain).min(1)]).default('tiered'),
      /** Days back from the run's last complete day that 'tiered' loads as day summaries (default 92). */
      dayHorizonDays: z.number({ error: HORIZON_DAYS }).int(HORIZON_DAYS).min(1, HORIZON_DAYS).max(3660, HORIZON_DAYS).optional(),
      /** Grains loaded from the history streams: one request per venue, stream and day for 'hour'. */
      historyGrain: z.union([HistoryGrain, z.array(HistoryGrain).min(1)]).default('day'),
      /** A stream whose cursor is older than this is reported stale by `check` and `status`. */
      staleAfterDays: positiveInt(3660).default(2),
    })
    .refine((sync) => sync.dayHorizonDays === undefined || sync.summaryGrain === 'tiered', {
      path: ['dayHorizonDays'],
      message: "applies only to summaryGrain 'tiered' (the default): remove it, or set summaryGrain to 'tiered'",
    })
    .prefault({}),
  endpoints: z.array(UserEndpointRow).default([]),
  warehouse: z
    .strictObject({
      path: z.string().min(1).default('data/warehouse.duckdb'),
      /**
       * DuckDB's memory limit while sync and backfill write (its buffer pool; beyond it DuckDB
       * spills to a temporary folder beside the file). DuckDB's own default is 80 % of the
       * machine's memory, so on a big host its cache could grow with the warehouse. Not below
       * MIN_MEMORY_LIMIT_BYTES: a write's working set then no longer fits (docs/scaling.md,
       * "Memory").
       */
      memoryLimit: z
        .string()
        .refine(isSize, 'a size such as "128MB" or "1GB"')
        .refine((size) => sizeInBytes(size) >= MIN_MEMORY_LIMIT_BYTES, {
          message:
            "must be at least 64MB: below it a write run no longer fits in DuckDB's memory and slows down many times over (32MB: a 27-second backfill did not end in 9 minutes); use 64MB or more",
        })
        .default('128MB'),
    })
    .prefault({}),
  /** Limits of the read commands (sql, report, check, status, dashboard): docs/lake.md, "Read limits". */
  query: z
    .strictObject({
      /**
       * DuckDB's memory limit for a read. Its own, not warehouse.memoryLimit: that one (128MB) is
       * sized for a write's working set and may spill to disk, while a read may not spill (a read
       * command writes no file, not even a temporary one) and must hold what it sorts, groups and
       * returns. DuckDB's default, 80 % of the machine, let one query reach 12.6 GB.
       */
      memoryLimit: z.string().refine(isSize, 'a size such as "512MB" or "2GB"').default(DEFAULT_QUERY_MEMORY_LIMIT),
      /** A read running longer is interrupted (VENUE_SQL_TIMEOUT); `--timeout` overrides it. */
      timeoutSeconds: positiveInt(86_400).default(DEFAULT_QUERY_TIMEOUT_SECONDS),
    })
    .prefault({}),
  parquet: z
    .strictObject({
      dir: z.string().min(1).default('data/parquet'),
      /**
       * This worker's name in a lake several workers export into (e.g. the tenant): names its
       * data files (`data-<writer>.parquet`) and manifest. Absent: the default writer.
       */
      writer: z.string().regex(WRITER_NAME, 'must be 1–40 lower-case letters, digits, _ or -, starting with a letter or digit (e.g. "tenant-a")').optional(),
      /** How to reach an object store (endpoint, region, path style); read when `dir` is `s3://bucket/prefix`. */
      s3: S3Settings.optional(),
    })
    .prefault({}),
  schedule: z
    .strictObject({
      timezone: z.string().min(1).default('UTC'),
      jobs: z.record(z.string(), z.string().min(1)).default({}),
    })
    .prefault({}),
  receiver: z
    .strictObject({
      enabled: z.boolean().default(true),
      host: z.string().min(1).default('127.0.0.1'),
      port: z.number().int().min(0).max(65535).default(8787),
      authorization: z.string().min(8, 'must be at least 8 characters').optional(),
      maxBodyBytes: z
        .number()
        .int()
        .min(1024)
        .max(64 * 1024 * 1024)
        .default(1_048_576),
      /** Durable journal of accepted events; beside the warehouse by default. */
      journalDir: z.string().min(1).optional(),
      /** Acknowledged events the journal may hold before the warehouse takes them; then 503. */
      maxJournalBytes: z.number().int().min(1_048_576).default(DEFAULT_MAX_JOURNAL_BYTES),
    })
    .refine((receiver) => receiver.maxJournalBytes > receiver.maxBodyBytes, {
      path: ['maxJournalBytes'],
      message: 'must be larger than receiver.maxBodyBytes (one event must fit)',
    })
    .prefault({}),
  /** The live dashboard of `serve` (off unless enabled; `venue-etl dashboard` writes files without it). */
  dashboard: z
    .strictObject({
      enabled: z.boolean().default(false),
      host: z.string().min(1).default('127.0.0.1'),
      port: z.number().int().min(0).max(65535).default(8788),
      /** IANA zone of the peak-hours grid, for `serve` and the default of `dashboard --tz`. */
      timezone: z.string().min(1).refine(isTimeZone, 'must be an IANA time zone such as UTC or Europe/Madrid').default('UTC'),
      /**
       * The complete `Authorization` header value a request must carry (e.g. "Basic …" or
       * "Bearer …"), as a `${VARIABLE}`; absent: no credential (fine on 127.0.0.1 only).
       */
      authorization: z.string().min(8, 'must be at least 8 characters').optional(),
    })
    .prefault({}),
  log: z.strictObject({ level: z.enum(LOG_LEVELS).default('info') }).prefault({}),
  /** Webhooks told how runs went (docs/operations.md, "Notifications"). */
  notify: z
    .strictObject({
      webhooks: z
        .array(
          z.strictObject({
            /** Usually a `${VARIABLE}`: a Slack webhook URL is a secret; masked everywhere. */
            url: httpUrl,
            /** Events sent to this hook; default every kind. */
            events: z
              .array(z.enum(NOTIFY_EVENTS))
              .min(1)
              .default([...NOTIFY_EVENTS]),
            format: z.enum(['slack', 'json']).default('json'),
            /** How the hook is named in logs and `status` (its URL never is); default `webhook-<n>`. */
            name: z
              .string()
              .regex(/^[A-Za-z0-9_.-]{1,40}$/, 'must be 1-40 letters, digits, _ . or -')
              .optional(),
          }),
        )
        .default([]),
      /** One attempt's deadline. */
      timeoutMs: z.number().int().min(100).max(60_000).default(5_000),
      /** Attempts of one delivery stop after this long (backoff 0.5 s, 1 s, 2 s, …); the run never waits longer. */
      retryForMs: z.number().int().min(0).max(600_000).default(30_000),
    })
    .prefault({}),
  /** Prometheus metrics (docs/operations.md, "Metrics"). */
  metrics: z
    .strictObject({
      /** serve's GET /metrics and /healthz on host:port (never the receiver's port). Off by default: an upgrade opens no new port. */
      enabled: z.boolean().default(false),
      host: z.string().min(1).default('127.0.0.1'),
      port: z.number().int().min(0).max(65535).default(9469),
      /** Batch commands push their run's metrics here (e.g. http://pushgateway:9091). */
      pushgateway: httpUrl.optional(),
      /** The `instance` grouping label of pushed metrics; default the host name. */
      instance: z.string().min(1).max(100).optional(),
    })
    .prefault({}),
  /** OpenLineage RunEvents (docs/operations.md, "Lineage"). */
  lineage: z
    .strictObject({
      /** Where RunEvents are POSTed (e.g. Marquez's http://marquez:5000/api/v1/lineage). */
      url: httpUrl.optional(),
      namespace: z.string().min(1).max(200).default('venue-etl'),
      timeoutMs: z.number().int().min(100).max(60_000).default(5_000),
    })
    .prefault({}),
  /** How old each stream's newest loaded day may be (docs/operations.md, "Freshness"); default sync.staleAfterDays. */
  freshness: z
    .strictObject({
      streams: z.record(z.string().min(1), positiveInt(3660)).default({}),
    })
    .prefault({}),
});

export type ConfigInput = z.input<typeof ConfigSchema>;
export type Config = z.infer<typeof ConfigSchema>;
export type ApiConfig = z.infer<typeof ApiSchema>;
/** A config that can call the API. */
export type ApiReadyConfig = Config & { readonly api: ApiConfig };

/** Day summaries of the last 92 days, a quarter: what users look at by the day; older periods by the month. */
export const DEFAULT_DAY_HORIZON_DAYS = 92;

/** `sync.summaryGrain` as a list of the grains loaded: one grain or both ('tiered' loads both, each for its own periods). */
export function summaryGrains(config: Pick<Config, 'sync'>): readonly SummaryGrain[] {
  const grain = config.sync.summaryGrain;
  if (grain === 'tiered') return ['day', 'month'];
  return Array.isArray(grain) ? grain : [grain];
}

/** Days of day summaries under 'tiered' (see dayTierStart); undefined when every period has the configured grains. */
export function dayHorizonDays(config: Pick<Config, 'sync'>): number | undefined {
  return config.sync.summaryGrain === 'tiered' ? (config.sync.dayHorizonDays ?? DEFAULT_DAY_HORIZON_DAYS) : undefined;
}

/** `sync.historyGrain` as a list, in a fixed order (day first), each grain once. */
export function historyGrains(config: Pick<Config, 'sync'>): readonly HistoryGrain[] {
  const grain = config.sync.historyGrain;
  const listed: readonly HistoryGrain[] = Array.isArray(grain) ? grain : [grain];
  return HistoryGrain.options.filter((g) => listed.includes(g));
}
