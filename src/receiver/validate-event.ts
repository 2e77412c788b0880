import { formatPath } from '../config/interpolate.js';
import { UpsertEventBody } from './event-schema.js';

/** One reason an event body was refused, named by its JSON path (`data.user.id`). */
export interface FieldProblem {
  readonly path: string;
  readonly message: string;
}

export type EventValidation = { readonly ok: true; readonly event: UpsertEventBody } | { readonly ok: false; readonly problems: readonly FieldProblem[] };

const AGREEMENTS_PATH = ['data', 'user-venue-agreements'];

/** Validates a parsed JSON value against docs/api.md §6; every problem is reported, each by its path. */
export function validateEvent(value: unknown): EventValidation {
  const parsed = UpsertEventBody.safeParse(value);
  if (parsed.success) {
    // JSON escapes can spell lone surrogates (\ud800): no UTF-8 text holds them, so the
    // warehouse could not store the body, and one such event would block every merge.
    const broken = illFormedTextAt(value);
    if (broken !== undefined) return { ok: false, problems: [{ path: broken, message: 'is not valid Unicode text (a lone surrogate)' }] };
    return { ok: true, event: parsed.data };
  }
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

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

interface Visit {
  readonly value: unknown;
  readonly key?: PropertyKey;
  readonly parent?: Visit;
}

/**
 * The path of the first string (key or value, unknown fields included) that is not well-formed
 * Unicode. Iterative: a body may nest thousands of levels deep.
 */
function illFormedTextAt(root: unknown): string | undefined {
  const pathOf = (visit: Visit, last?: PropertyKey): string => {
    const segments: PropertyKey[] = last === undefined ? [] : [last];
    for (let at: Visit | undefined = visit; at?.parent; at = at.parent) segments.unshift(at.key!);
    return formatPath(segments);
  };
  const stack: Visit[] = [{ value: root }];
  while (stack.length > 0) {
    const visit = stack.pop()!;
    const { value } = visit;
    if (typeof value === 'string') {
      if (LONE_SURROGATE.test(value)) return pathOf(visit);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => {
        stack.push({ value: item, key: index, parent: visit });
      });
    } else if (value !== null && typeof value === 'object') {
      for (const [key, item] of Object.entries(value)) {
        if (LONE_SURROGATE.test(key)) return pathOf(visit, key);
        stack.push({ value: item, key, parent: visit });
      }
    }
  }
  return undefined;
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
