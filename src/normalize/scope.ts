import { z } from 'zod';
import type { EndpointRow } from '../catalogue/index.js';
import { wrongScope } from './answer-errors.js';
import type { ResourceLike } from './resource.js';
import { schemaError } from './schema-error.js';

const ToOne = z.object({ data: z.object({ id: z.string() }).nullable() });
const Relationships = z.record(z.string(), z.unknown());

/** The id of a to-one relationship `{data: {type, id}}`, or undefined (absent, `data: null`, malformed). */
export function relationshipId(resource: ResourceLike, name: string): string | undefined {
  const relationships = Relationships.safeParse(resource.relationships);
  if (!relationships.success) return undefined;
  const relationship = ToOne.safeParse(relationships.data[name]);
  return relationship.success ? relationship.data.data?.id : undefined;
}

/**
 * A resource answers for the venue or project the request named (the path's id or the
 * `filter[venue]`/`filter[project]` value): whenever it names one with a `venue`/`project`
 * relationship, it must be that one (UUIDs compare case-insensitively). An answer about another
 * venue would otherwise be stored under it, or under the one asked for. Lists filtered by venue
 * and role lists must name it; the analytics resources of docs/api.md §4.1–4.9 need not.
 */
export function checkScope(endpoint: EndpointRow, resource: ResourceLike, askedId: string, where: string): void {
  const name = endpoint.scope === 'project' ? 'project' : endpoint.scope === 'venue' ? 'venue' : undefined;
  if (name === undefined) return;
  const path = `${where}.relationships.${name}.data.id`;
  const id = relationshipId(resource, name);
  if (id === undefined) {
    if (endpoint.venueFrom === 'relationship' || endpoint.kind === 'roles') throw schemaError(endpoint.stream, path, 'is missing');
    return;
  }
  if (id.toLowerCase() !== askedId.toLowerCase()) {
    throw wrongScope(endpoint.stream, path, `is ${id}, but the request asked for ${name} ${askedId}`);
  }
}
