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

/**
 * One endpoint of the API, as data. The runner, planner and normalizer read these fields; adding
 * an endpoint (e.g. the project statistics of spec 4.11 once their paths are known) is one row.
 */
export interface EndpointRow {
  /** Spec section, e.g. '4.1'; 'config' for rows added in the config file. */
  readonly spec: string;
  /** Stream name: the endpoint's path segment (CONTRACT §3). */
  readonly stream: string;
  readonly kind: EndpointKind;
  readonly scope: EndpointScope;
  /** Path below the base URL; `{venue_id}` / `{project_id}` / `{account_id}` are filled in. */
  readonly path: string;
  /** Query parameters; values may hold the same placeholders (e.g. `filter[venue]`). */
  readonly query?: Readonly<Record<string, string>>;
  /** Whether the endpoint takes `from`/`to` (required on history, optional filters on summaries). */
  readonly dates: 'required' | 'optional' | 'none';
  /** A list document, paginated per spec §8; otherwise a single resource. */
  readonly list: boolean;
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
  /** Deprecated upstream but still served (spec §9). */
  readonly deprecated?: boolean;
}

/** Roles and accounts are read whole every run (a snapshot), not by date window. */
export function isSnapshotEndpoint(endpoint: Pick<EndpointRow, 'kind'>): boolean {
  return endpoint.kind === 'roles' || endpoint.kind === 'accounts';
}

/** The domain of a metric: declared in the row, or any finite number for attributes no row declares. */
export function domainOf(endpoint: Pick<EndpointRow, 'domains'>, metric: string): ValueDomain {
  return endpoint.domains[metric] ?? ANY_NUMBER;
}
