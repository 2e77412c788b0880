import { z } from 'zod';
import type { UserEndpointRow } from '../config/index.js';
import type { EndpointRow } from './endpoint-row.js';

/**
 * Turns an endpoint row from the config (`endpoints[]`) into a catalogue row. Its attributes
 * are not known in advance: every attribute listed in `metrics` is required; without `metrics`,
 * every series attribute (history) or numeric attribute (summary) of the first resource is a metric.
 */
export function endpointFromConfig(row: UserEndpointRow): EndpointRow {
  const shape = Object.fromEntries((row.metrics ?? []).map((metric) => [metric, row.kind === 'series' ? z.array(z.unknown()) : z.number().nullable()]));
  return {
    spec: 'config',
    stream: row.stream,
    kind: row.kind,
    scope: row.scope,
    path: row.path,
    dates: row.kind === 'series' ? 'required' : 'optional',
    list: false,
    resourceType: row.resourceType,
    attributes: z.looseObject(shape),
    metrics: row.metrics ?? [],
    // Their types are not known: any finite number or null (domainOf's default).
    domains: {},
    inferMetrics: row.metrics === undefined,
  };
}
