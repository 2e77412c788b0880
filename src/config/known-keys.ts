import { z } from 'zod';
import { didYouMean } from '../infra/did-you-mean.js';
import { ConfigSchema } from './schema.js';

/** The keys the schema allows in the object at `path` (e.g. ['sync'] → startDate, lookbackDays…). */
export function knownKeysAt(path: readonly PropertyKey[]): string[] {
  let node: z.core.$ZodType = ConfigSchema;
  for (const segment of path) {
    node = unwrap(node);
    if (node instanceof z.ZodObject && typeof segment === 'string') {
      const child: unknown = node.shape[segment];
      if (!(child instanceof z.core.$ZodType)) return [];
      node = child;
    } else if (node instanceof z.ZodArray && typeof segment === 'number') {
      node = node.element;
    } else {
      return [];
    }
  }
  node = unwrap(node);
  return node instanceof z.ZodObject ? Object.keys(node.shape) : [];
}

/**
 * The object or array a key path walks into: through defaults and optionals, a transform's input
 * (`scope`), and a union's object option (a `scope.venues` entry is an id or an object).
 */
function unwrap(node: z.core.$ZodType): z.core.$ZodType {
  let current = node;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodDefault || current instanceof z.ZodPrefault || current instanceof z.ZodNullable) {
      current = current.unwrap();
    } else if (current instanceof z.ZodPipe) {
      current = current.in;
    } else if (current instanceof z.ZodUnion) {
      const object = current.options.find((option) => unwrap(option) instanceof z.ZodObject);
      if (object === undefined) return current;
      current = object;
    } else {
      return current;
    }
  }
}

/** `unknown key "lookbakDays"; did you mean "lookbackDays"?` */
export function unknownKeyMessage(key: string, path: readonly PropertyKey[]): string {
  return `unknown key "${key}"${didYouMean(key, knownKeysAt(path))}`;
}
