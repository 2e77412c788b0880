import { fillTemplate, type EndpointRow } from '../catalogue/index.js';
import type { PlannedRequest } from '../plan/index.js';

/**
 * Path and query of one request. Query keys are written as the spec shows them
 * (`filter[venue]`, `page[size]`), values are URL-encoded (commas kept: id lists are comma-delimited).
 */
export function requestPath(endpoint: EndpointRow, ids: Readonly<Record<string, string>>, request: PlannedRequest): string {
  const path = fillTemplate(endpoint.path, ids);
  const query: string[] = [];
  for (const [key, template] of Object.entries(endpoint.query ?? {})) query.push(`${key}=${fillTemplate(template, ids)}`);
  if (request.from !== undefined) query.push(`from=${request.from}`);
  if (request.to !== undefined) query.push(`to=${request.to}`);
  return query.length > 0 ? `${path}?${query.join('&')}` : path;
}

/** The placeholder values of a slice's scope id. */
export function placeholderValues(endpoint: EndpointRow, scopeId: string): Record<string, string> {
  if (endpoint.scope === 'venue') return { venue_id: scopeId };
  if (endpoint.scope === 'project') return { project_id: scopeId };
  return {};
}
