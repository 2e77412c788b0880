import { z } from 'zod';
import { ApiError, ApiErrorCode } from './errors.js';

/**
 * The JSON:API envelope of docs/api.md §1 and §8. Only the envelope and resource identity are checked
 * here; attribute schemas per resource type belong to the catalogue.
 */

export interface JsonApiIdentifier {
  readonly type: string;
  readonly id: string;
}

export interface JsonApiRelationship {
  readonly data?: JsonApiIdentifier | readonly JsonApiIdentifier[] | null;
  readonly [member: string]: unknown;
}

export interface JsonApiResource extends JsonApiIdentifier {
  readonly attributes: Readonly<Record<string, unknown>>;
  readonly relationships?: Readonly<Record<string, JsonApiRelationship>>;
}

export interface JsonApiLinks {
  readonly self?: string | null;
  readonly first?: string | null;
  readonly last?: string | null;
  readonly previous?: string | null;
  readonly next?: string | null;
  readonly [member: string]: unknown;
}

export interface JsonApiVersion {
  readonly version: '1.0';
}

export interface JsonApiSingleDocument {
  readonly data: JsonApiResource;
  readonly jsonapi: JsonApiVersion;
  readonly meta?: Readonly<Record<string, unknown>>;
  readonly links?: JsonApiLinks;
}

export interface JsonApiListDocument {
  readonly data: readonly JsonApiResource[];
  readonly meta: { readonly count: number; readonly [member: string]: unknown };
  readonly links?: JsonApiLinks;
  readonly jsonapi: JsonApiVersion;
}

export type JsonApiDocument = JsonApiSingleDocument | JsonApiListDocument;

export function isListDocument(document: JsonApiDocument): document is JsonApiListDocument {
  return Array.isArray(document.data);
}

const identifier = z.looseObject({ type: z.string().min(1), id: z.string().min(1) });
const link = z.string().nullable().optional();

const resource = z.looseObject({
  type: z.string().min(1),
  id: z.string().min(1),
  // looseObject rather than record: accepts any object without walking every attribute.
  attributes: z.looseObject({}),
  relationships: z.record(z.string(), z.looseObject({ data: z.union([identifier, z.array(identifier), z.null()]).optional() })).optional(),
});

const jsonapi = z.looseObject({ version: z.literal('1.0') });

const singleDocument = z.looseObject({ data: resource, jsonapi, meta: z.looseObject({}).optional() });

const listDocument = z.looseObject({
  data: z.array(resource),
  meta: z.looseObject({ count: z.number().int().min(0) }),
  links: z.looseObject({ self: link, first: link, last: link, previous: link, next: link }).optional(),
  jsonapi,
});

const MAX_ISSUES_SHOWN = 5;

/**
 * Validates a parsed body. Returns the body itself (not zod's copy): a page of a thousand
 * resources is checked without being cloned.
 */
export function toJsonApiDocument(body: unknown, request: string): JsonApiDocument {
  if (isObject(body) && 'errors' in body) {
    throw new ApiError(
      ApiErrorCode.errorDocument,
      `${request} answered with success but its body is an errors document: ${describeApiErrors(body) || 'no detail given'}`,
      { request, hint: 'The API reported a problem with this request; the message above is its own.' },
    );
  }
  const schema = isObject(body) && Array.isArray(body.data) ? listDocument : singleDocument;
  const result = schema.safeParse(body);
  if (!result.success) {
    const issues = result.error.issues.slice(0, MAX_ISSUES_SHOWN).map((issue) => `${jsonPath(issue.path)}: ${issue.message}`);
    const more = result.error.issues.length > MAX_ISSUES_SHOWN ? ` (+${result.error.issues.length - MAX_ISSUES_SHOWN} more)` : '';
    throw new ApiError(ApiErrorCode.schema, `${request} returned a body that is not the expected JSON:API document: ${issues.join('; ')}${more}`, {
      request,
      hint: 'The API changed or api.baseUrl points at another service; check api.baseUrl.',
      details: { issues: result.error.issues.slice(0, MAX_ISSUES_SHOWN).map((issue) => ({ path: jsonPath(issue.path), message: issue.message })) },
    });
  }
  return body as JsonApiDocument;
}

/** Narrows a validated document to a list; a single resource here means a wrong endpoint. */
export function expectList(document: JsonApiDocument, request: string): JsonApiListDocument {
  if (!isListDocument(document)) throw shapeMismatch(request, 'a list (data: array)');
  return document;
}

export function expectSingle(document: JsonApiDocument, request: string): JsonApiSingleDocument {
  if (isListDocument(document)) throw shapeMismatch(request, 'a single resource (data: object)');
  return document;
}

function shapeMismatch(request: string, expected: string): ApiError {
  return new ApiError(ApiErrorCode.schema, `${request} returned a JSON:API document, but not ${expected}: $.data`, {
    request,
    hint: 'The endpoint path is probably wrong for this stream.',
  });
}

/** `title: detail` of each JSON:API error object, joined; '' when there are none. */
export function describeApiErrors(body: unknown): string {
  if (!isObject(body) || !Array.isArray(body.errors)) return '';
  const parts: string[] = [];
  for (const error of body.errors.slice(0, MAX_ISSUES_SHOWN)) {
    if (!isObject(error)) continue;
    const text = [error.title, error.detail].filter((value) => typeof value === 'string' && value !== '').join(': ');
    const pointer = isObject(error.source) && typeof error.source.pointer === 'string' ? ` (at ${error.source.pointer})` : '';
    if (text) parts.push(`${text}${pointer}`);
  }
  return parts.join('; ').slice(0, 1000);
}

function jsonPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((out, key) => (typeof key === 'number' ? `${out}[${key}]` : `${out}.${String(key)}`), '$');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
