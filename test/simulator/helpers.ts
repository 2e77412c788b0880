import { expect } from 'vitest';
import type { Simulator } from '../../src/simulator/index.js';

export const JSONAPI = 'application/vnd.api+json';
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
export const TODAY = '2026-03-10';

export interface Answer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** Parsed JSON, or undefined when the body is not JSON. */
  readonly body: any;
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
export async function walk(sim: Simulator, path: string): Promise<any[]> {
  const pages: any[] = [];
  let next: string | null = `${sim.url}${path}`;
  while (next) {
    const answer = await get(sim, next);
    expect(answer.status).toBe(200);
    pages.push(answer.body);
    expect(pages.length).toBeLessThan(1000);
    next = answer.body.links.next;
  }
  return pages;
}

export function expectErrorsDocument(answer: Answer, status: number): void {
  expect(answer.status).toBe(status);
  expect(answer.headers.get('content-type')).toBe(JSONAPI);
  expect(answer.body.jsonapi).toEqual({ version: '1.0' });
  expect(answer.body.errors).toHaveLength(1);
  expect(answer.body.errors[0]).toMatchObject({ status: String(status), title: expect.any(String), detail: expect.any(String) });
}

/** Every point's timestamp, e.g. for comparing spacing. */
export function timestamps(points: ReadonlyArray<readonly [string, unknown]>): string[] {
  return points.map(([ts]) => ts);
}
