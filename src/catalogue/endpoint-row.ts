import type { z } from 'zod';
import { ANY_NUMBER, type PairMetric, type ValueDomain } from './value-domains.js';

/** What an endpoint's resources become in the warehouse. */
export type EndpointKind =
  /** History: time-series attributes → `series_points` (one row per metric and timestamp). */
  | 'series'
  /** Summary over a period: numeric attributes → `summary_values` (one row per metric). */
  | 'summary'
  /** Role lists → `venue_roles` / `project_roles` versions. */
  | 'roles'
  /** Account lookup → `accounts`. */
  | 'accounts';

/** Whose id goes into the path or filter: one slice per venue, per project, or one for all. */
export type EndpointScope = 'venue' | 'project' | 'account';

/** The query parameters that carry a slice's window: its first and its last day (`YYYY-MM-DD`). */
export interface DateParams {
  readonly from: string;
  readonly to: string;
}

/**
 * How the answers of a row are read.
 * - `single`: one document holding one resource.
 * - `page-number`: a list; the first request carries `number`=1 and `size`=api.pageSize, then
 *   `links.next` is followed to its end (docs/api-assumptions.md, Pagination).
 */
export type Paginator = { readonly type: 'single' } | { readonly type: 'page-number'; readonly number: string; readonly size: string };

/**
 * Ids a row's requests take from what other streams loaded (dlt's `resolve`): the ids the
 * current rows of `parents` name in their `relationship`, sent in batches of
 * api.accountsBatchSize, comma-delimited, in the `{placeholder}` of the query.
 */
export interface ResolvedIds {
  readonly placeholder: string;
  /** These streams run (and commit) before the row's stream in a run that has both. */
  readonly parents: readonly string[];
  readonly relationship: 'account';
}

/**
 * One endpoint of the API, as data: how its requests are built, what its answers hold and what
 * they become. The planner, the extractors and the normalizer read these fields and nothing
 * else; adding an endpoint (e.g. the project statistics once their paths are known) is one row.
 * A stream may be fed by several rows (accounts: by ids, and the caller's own).
 */
export interface EndpointRow {
  /** Stream name: the endpoint's path segment (docs/warehouse.md). */
  readonly stream: string;
  readonly kind: EndpointKind;
  readonly scope: EndpointScope;
  /** Path below the base URL; `{venue_id}` / `{project_id}` are filled with the slice's scope id. */
  readonly path: string;
  /** Query parameters; values may hold the same placeholders (e.g. `filter[venue]`). */
  readonly query?: Readonly<Record<string, string>>;
  /**
   * The window's parameters, sent on every request of the row: also where the API calls them
   * optional (the summaries), so that every stored period is the one asked for. A row without
   * them is read whole every run (a snapshot).
   */
  readonly dates?: DateParams;
  readonly paginator: Paginator;
  /** Ids taken from other streams' rows (the accounts the roles name). */
  readonly resolve?: ResolvedIds;
  /**
   * The caller's own resource (`me`): requested once before anything else as the access check
   * (a refused token stops the run before the warehouse is opened; the answer's `Date` header
   * is the API's clock), and stored with `is_me`.
   */
  readonly caller?: boolean;
  /** JSON:API `type` of the resources. */
  readonly resourceType: string;
  /** zod schema of the resource's attributes; unknown attributes are tolerated and reported. */
  readonly attributes: z.ZodObject;
  /** Attributes that become metrics (series or numbers), verbatim names. */
  readonly metrics: readonly string[];
  /** The values each metric may take (series points and summary numbers alike); ANY_NUMBER when absent. */
  readonly domains: Readonly<Record<string, ValueDomain>>;
  /** Attributes holding `[key, count]` pairs that become metrics `<attribute>.<key>`. */
  readonly pairMetrics?: readonly PairMetric[];
  /**
   * Whether each resource must name its venue with a `venue` relationship (a list filtered by
   * venue). Whenever a resource names a venue or project, it must be the one asked for.
   */
  readonly venueFrom?: 'scope' | 'relationship';
  /** Metrics are every series (history) or numeric (summary) attribute the API sends (config rows without `metrics`). */
  readonly inferMetrics?: boolean;
}

/** A row without date parameters (roles, accounts) is read whole every run: a snapshot, not by date window. */
export function isSnapshotEndpoint(endpoint: Pick<EndpointRow, 'dates'>): boolean {
  return endpoint.dates === undefined;
}

/** The domain of a metric: declared in the row, or any finite number for attributes no row declares. */
export function domainOf(endpoint: Pick<EndpointRow, 'domains'>, metric: string): ValueDomain {
  return endpoint.domains[metric] ?? ANY_NUMBER;
}
