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
  // The schema accepted it, so it is an object; the original is returned, not zod's copy.
  const attributes = resource.attributes;
  if (!isRecord(attributes)) throw schemaError(endpoint.stream, `${where}.attributes`, 'is not an object');
  if (endpoint.inferMetrics) return checkInferred(endpoint, attributes, where, drift);
  let declared = declaredCache.get(endpoint.attributes);
  if (!declared) {
    declared = declaredAttributes(endpoint.attributes);
    declaredCache.set(endpoint.attributes, declared);
  }
  for (const key in attributes) {
    if (!declared.has(key)) drift.report(endpoint.stream, endpoint.resourceType, key);
  }
  return attributes;
}

/** A number written as a string: `"12"`, `"-0.5"`, `"1e3"`. */
const NUMERIC_TEXT = /^\s*-?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?\s*$/;

/**
 * A config row without `metrics` loads what the API sends: every series (history) or number
 * (summary) attribute. Those are not drift. A number sent as a string would silently drop its
 * metric (and the window replace would delete the rows held for it), so it fails the slice as
 * on a catalogue row; any other attribute is ignored and reported once.
 */
function checkInferred(endpoint: EndpointRow, attributes: Record<string, unknown>, where: string, drift: DriftReporter): Record<string, unknown> {
  for (const key in attributes) {
    const value = attributes[key];
    const loaded = endpoint.kind === 'series' ? Array.isArray(value) : value === null || typeof value === 'number';
    if (loaded) continue;
    if (endpoint.kind === 'summary' && typeof value === 'string' && NUMERIC_TEXT.test(value)) {
      throw schemaError(endpoint.stream, `${where}.attributes.${key}`, `must be a number, got ${JSON.stringify(value)}`);
    }
    drift.report(endpoint.stream, endpoint.resourceType, key);
  }
  return attributes;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
