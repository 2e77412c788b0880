import { fillTemplate, type EndpointRow, type PlaceholderValue } from '../catalogue/index.js';
import type { PlannedRequest } from '../plan/index.js';

/**
 * Path and query of one request of a row, the first page's for a list: the row's query, then
 * the window's dates, then the page parameters (with `pageSize`). Query keys are written as the API documents them
 * (`filter[venue]`, `page[size]`), values are URL-encoded (the commas of an id batch are kept).
 */
export function requestPath(row: EndpointRow, values: Readonly<Record<string, PlaceholderValue>>, request: PlannedRequest = {}, pageSize?: number): string {
  const path = fillTemplate(row.path, values);
  const query: string[] = [];
  for (const [key, template] of Object.entries(row.query ?? {})) query.push(`${key}=${fillTemplate(template, values)}`);
  if (row.dates && request.from !== undefined) query.push(`${row.dates.from}=${request.from}`);
  if (row.dates && request.to !== undefined) query.push(`${row.dates.to}=${request.to}`);
  if (row.paginator.type === 'page-number' && pageSize !== undefined) query.push(`${row.paginator.number}=1`, `${row.paginator.size}=${pageSize}`);
  return query.length > 0 ? `${path}?${query.join('&')}` : path;
}

/** The placeholder values of a slice's scope id. */
export function placeholderValues(row: Pick<EndpointRow, 'scope'>, scopeId: string): Record<string, string> {
  if (row.scope === 'venue') return { venue_id: scopeId };
  if (row.scope === 'project') return { project_id: scopeId };
  return {};
}
