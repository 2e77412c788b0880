import { z } from 'zod';
import type { EndpointRow } from './endpoint-row.js';
import { DATES, SINGLE } from './endpoints.js';

/**
 * A row a user adds in the config (`endpoints[]`) for an endpoint the API has but venue-etl does
 * not list yet (the project statistics, whose paths the API documentation does not show).
 */
export const UserEndpointRow = z.strictObject({
  stream: z.string().regex(/^[a-z0-9][a-z0-9-]*$/, 'must be lower-case words joined by "-"'),
  /** Path below api.baseUrl with `{venue_id}` or `{project_id}`, e.g. `/analytics/project-devices-history/{project_id}/`. */
  path: z.string().startsWith('/'),
  scope: z.enum(['venue', 'project']),
  kind: z.enum(['series', 'summary']),
  /** JSON:API `type` of the resource the endpoint returns. */
  resourceType: z.string().min(1),
  /** Attribute names to load; every numeric / series attribute when omitted. */
  metrics: z.array(z.string().min(1)).optional(),
});
export type UserEndpointRow = z.infer<typeof UserEndpointRow>;

/**
 * Turns a config row into a catalogue row like the built-in ones: one resource, the window in
 * `from`/`to`. Its attributes are not known in advance: every attribute listed in `metrics` is
 * required; without `metrics`, every series attribute (history) or numeric attribute (summary)
 * the API sends is a metric.
 */
export function endpointFromConfig(row: UserEndpointRow): EndpointRow {
  const shape = Object.fromEntries((row.metrics ?? []).map((metric) => [metric, row.kind === 'series' ? z.array(z.unknown()) : z.number().nullable()]));
  return {
    stream: row.stream,
    kind: row.kind,
    scope: row.scope,
    path: row.path,
    dates: DATES,
    paginator: SINGLE,
    resourceType: row.resourceType,
    attributes: z.looseObject(shape),
    metrics: row.metrics ?? [],
    // Their types are not known: any finite number or null (domainOf's default).
    domains: {},
    inferMetrics: row.metrics === undefined,
  };
}
