import type { EndpointRow } from '../catalogue/index.js';
import { declaredAttributes } from '../catalogue/index.js';
import type { DriftReporter } from './drift.js';
import { schemaError } from './schema-error.js';

export interface ResourceLike {
  readonly type: string;
  readonly id: string | null;
  readonly attributes?: unknown;
  readonly relationships?: unknown;
}

const declaredCache = new WeakMap<object, ReadonlySet<string>>();

/**
 * Checks a resource against its endpoint's row: the type, then the attributes with the row's zod
 * schema (a missing or wrongly typed attribute fails with the field's JSON path). Unknown
 * attributes go to the drift reporter. Returns the attributes as a record.
 */
export function checkResource(endpoint: EndpointRow, resource: ResourceLike, where: string, drift: DriftReporter): Record<string, unknown> {
  if (resource.type !== endpoint.resourceType) {
    throw schemaError(endpoint.stream, `${where}.type`, `is "${resource.type}", expected "${endpoint.resourceType}"`);
  }
  const parsed = endpoint.attributes.safeParse(resource.attributes);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    const problem = issue.code === 'invalid_type' && issue.message.includes('undefined') ? 'is missing' : issue.message;
    throw schemaError(endpoint.stream, `${where}.attributes${path}`, problem);
  }
  let declared = declaredCache.get(endpoint.attributes);
  if (!declared) {
    declared = declaredAttributes(endpoint.attributes);
    declaredCache.set(endpoint.attributes, declared);
  }
  const attributes = resource.attributes as Record<string, unknown>;
  for (const key in attributes) {
    if (!declared.has(key)) drift.report(endpoint.stream, endpoint.resourceType, key);
  }
  return attributes;
}

/** The id of a to-one relationship `{data: {type, id}}`, or undefined. */
export function relationshipId(resource: ResourceLike, name: string): string | undefined {
  const relationships = resource.relationships as Record<string, { data?: { id?: unknown } | null } | undefined> | undefined;
  const id = relationships?.[name]?.data?.id;
  return typeof id === 'string' ? id : undefined;
}
