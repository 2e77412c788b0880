import { expect } from 'vitest';
import { z } from 'zod';
import type { Simulator } from '../../src/simulator/index.js';

export const JSONAPI = 'application/vnd.api+json';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const TODAY = '2026-03-10';

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** Parsed JSON, or undefined when the body is not JSON (see documentOf, single, list). */
  readonly body: unknown;
}

// The simulator's JSON:API documents, loosely: fault modes send null ids, another version, drifted
// attributes, so only the envelope is checked and every attribute stays `unknown`.
const identifierSchema = z.looseObject({ type: z.string(), id: z.string().nullable() });
const resourceSchema = z.looseObject({
  type: z.string(),
  id: z.string().nullable(),
  attributes: z.record(z.string(), z.unknown()),
  relationships: z.record(z.string(), z.looseObject({ data: identifierSchema })).optional(),
});
const documentSchema = z.looseObject({
  jsonapi: z.looseObject({ version: z.string() }),
  data: z.union([resourceSchema, z.array(resourceSchema)]).optional(),
  meta: z.looseObject({ count: z.number() }).optional(),
  links: z.record(z.string(), z.string().nullable()).optional(),
  errors: z.array(z.looseObject({ status: z.string() })).optional(),
});
export type Resource = z.infer<typeof resourceSchema>;
export type Document = z.infer<typeof documentSchema>;
export type ListDocument = Document & { readonly data: Resource[] };

/** The answer's body as a JSON:API document (fails the test with the first misfit otherwise). */
export function documentOf(answer: Answer): Document {
  return documentSchema.parse(answer.body);
}

/** The answer's one resource. */
export function single(answer: Answer): Resource {
  const { data } = documentOf(answer);
  if (data === undefined || Array.isArray(data)) throw new Error(`expected a single resource: ${answer.text.slice(0, 300)}`);
  return data;
}

/** The answer's document, holding a list of resources. */
export function list(answer: Answer): ListDocument {
  const document = documentOf(answer);
  const { data } = document;
  if (!Array.isArray(data)) throw new Error(`expected a list of resources: ${answer.text.slice(0, 300)}`);
  return { ...document, data };
}

const seriesSchema = z.array(z.tuple([z.string(), z.number().nullable()]));

/** A history attribute: `[timestamp, value]` points (rates-average may be null). */
export function seriesOf(resource: Resource, attribute: string): [string, number | null][] {
  return seriesSchema.parse(resource.attributes[attribute]);
}

/** An attribute holding a list of strings (permissions, roles-names). */
export function stringsOf(resource: Resource, attribute: string): string[] {
  return z.array(z.string()).parse(resource.attributes[attribute]);
}

/** GET an API path (or absolute URL) with the right headers unless overridden. */
export async function get(sim: Pick<Simulator, 'url' | 'token'>, pathOrUrl: string, headers: Record<string, string> = {}): Promise<Answer> {
  const url = pathOrUrl.startsWith('http') ? pathOrUrl : `${sim.url}${pathOrUrl}`;
  const response = await fetch(url, { headers: { authorization: `Bearer ${sim.token}`, accept: JSONAPI, ...headers } });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, text, body };
}

/** Follows links.next from a first page; returns every page's document. */
export async function walk(sim: Simulator, path: string): Promise<ListDocument[]> {
  const pages: ListDocument[] = [];
  let next: string | null | undefined = `${sim.url}${path}`;
  while (next) {
    const answer = await get(sim, next);
    expect(answer.status).toBe(200);
    const page = list(answer);
    pages.push(page);
    expect(pages.length).toBeLessThan(1000);
    expect(page.links).toBeDefined();
    next = page.links?.next;
  }
  return pages;
}

export function expectErrorsDocument(answer: Answer, status: number): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toBe(JSONAPI);
  const document = documentOf(answer);
  expect(document.jsonapi).toEqual({ version: '1.0' });
  expect(document.errors).toHaveLength(1);
  expect(document.errors?.[0]).toMatchObject({ status: String(status), title: expect.any(String), detail: expect.any(String) });
}

/** Every point's timestamp, e.g. for comparing spacing. */
export function timestamps(points: ReadonlyArray<readonly [string, unknown]>): string[] {
  return points.map(([ts]) => ts);
}
