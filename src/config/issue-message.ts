import type { z } from 'zod';
import { didYouMean } from '../infra/did-you-mean.js';
import { formatPath, type ConfigProblem } from './interpolate.js';

type Issue = z.core.$ZodIssue;

/**
 * One schema issue as the config problems it stands for. A key with a fixed set of values
 * (`log.level`, `sync.historyGrain`, …) lists its choices and the value it got, with the closest
 * choice: zod says only "Invalid input" when the key also takes a list (a union). Every enum is
 * described here, in one place, rather than by a message on each.
 */
export function issueProblems(issue: Issue, document: unknown, base: readonly PropertyKey[] = []): ConfigProblem[] {
  const at = [...base, ...issue.path];
  const path = formatPath(at);
  const value = valueAt(document, at);
  if (issue.code === 'invalid_value' && issue.values.every((v) => typeof v === 'string')) {
    return [{ path, message: choicesMessage(issue.values as string[], false, value) }];
  }
  if (issue.code !== 'invalid_union') return [{ path, message: issue.message }];
  // A list with a bad item: the branch that went into the list names the item.
  const deeper = issue.errors.find((branch) => branch.length > 0 && branch.every((i) => i.path.length > 0));
  if (Array.isArray(value) && deeper) return deeper.flatMap((i) => issueProblems(i, document, at));
  const choices: string[] = [];
  let list = false;
  for (const branch of issue.errors) {
    for (const i of branch) {
      if (i.path.length > 0) return [{ path, message: issue.message }];
      if (i.code === 'invalid_value' && i.values.every((v) => typeof v === 'string')) choices.push(...(i.values as string[]));
      else if (i.code === 'invalid_type' && i.expected === 'array') list = true;
      else return [{ path, message: issue.message }];
    }
  }
  return [{ path, message: choicesMessage(choices, list, value) }];
}

/** `must be one of "day", "hour" (or a list of them), got "hours"; did you mean "hour"?` */
function choicesMessage(choices: readonly string[], list: boolean, value: unknown): string {
  const got = value === undefined ? '' : `, got ${quoted(value)}`;
  const close = typeof value === 'string' ? didYouMean(value, choices) : '';
  return `must be one of ${choices.map((c) => JSON.stringify(c)).join(', ')}${list ? ' (or a list of them)' : ''}${got}${close}`;
}

function quoted(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function valueAt(document: unknown, path: readonly PropertyKey[]): unknown {
  let value = document;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
