import { formatPath } from '../config/interpolate.js';
import { UpsertEventBody } from './event-schema.js';

/** One reason an event body was refused, named by its JSON path (`data.user.id`). */
export interface FieldProblem {
  readonly path: string;
  readonly message: string;
}

export type EventValidation =
  | { readonly ok: true; readonly event: UpsertEventBody }
  | { readonly ok: false; readonly problems: readonly FieldProblem[] };

const AGREEMENTS_PATH = ['data', 'user-venue-agreements'];

/** Validates a parsed JSON value against spec §6; every problem is reported, each by its path. */
export function validateEvent(value: unknown): EventValidation {
  const parsed = UpsertEventBody.safeParse(value);
  if (parsed.success) return { ok: true, event: parsed.data };
  // A single acceptance object is validated as a one-element list; name its fields as sent.
  const agreementsWereObject = !Array.isArray(lookup(value, AGREEMENTS_PATH));
  const problems: FieldProblem[] = [];
  for (const issue of parsed.error.issues) {
    let segments: PropertyKey[] = [...issue.path];
    if (agreementsWereObject && startsWith(segments, AGREEMENTS_PATH) && segments[2] === 0) {
      segments = [...AGREEMENTS_PATH, ...segments.slice(3)];
    }
    const path = formatPath(segments);
    if (!problems.some((p) => p.path === path)) problems.push({ path, message: issue.message });
  }
  return { ok: false, problems };
}

export function describeProblems(problems: readonly FieldProblem[]): string {
  return problems.map((p) => `${p.path}: ${p.message}`).join('; ');
}

function lookup(value: unknown, path: readonly string[]): unknown {
  let current = value;
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function startsWith(segments: readonly PropertyKey[], prefix: readonly string[]): boolean {
  return prefix.every((key, index) => segments[index] === key);
}
