export interface ConfigProblem {
  /** JSON path of the offending value, e.g. `api.token` or `scope.venues[2]`. */
  readonly path: string;
  readonly message: string;
}

const PLACEHOLDER = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces `${NAME}` in every string of a parsed JSON document with the environment variable
 * NAME. A missing variable is recorded as a problem at the value's path, so the user learns about
 * every missing variable at once.
 */
export function interpolateEnv(value: unknown, env: Readonly<Record<string, string | undefined>>, problems: ConfigProblem[], path = ''): unknown {
  if (typeof value === 'string') {
    return value.replace(PLACEHOLDER, (whole, name: string) => {
      const found = env[name];
      if (found === undefined || found === '') {
        problems.push({ path: path || '(root)', message: `environment variable ${name} is not set (referenced as ${whole})` });
        return '';
      }
      return found;
    });
  }
  if (Array.isArray(value)) {
    return value.map((item, index) => interpolateEnv(item, env, problems, `${path}[${index}]`));
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // Keys starting with "//" are comments (JSON has none); config.example.json uses them.
      if (key.startsWith('//')) continue;
      out[key] = interpolateEnv(item, env, problems, path ? `${path}.${key}` : key);
    }
    return out;
  }
  return value;
}

export function formatPath(segments: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const segment of segments) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out ? `.${String(segment)}` : String(segment);
  }
  return out || '(root)';
}

/**
 * The values `${NAME}` placeholders in the document stand for (value → NAME), for masking them
 * where a message would quote a value: a secret put in the wrong key must not be printed.
 */
export function referencedValues(value: unknown, env: Readonly<Record<string, string | undefined>>, found = new Map<string, string>()): Map<string, string> {
  if (typeof value === 'string') {
    for (const match of value.matchAll(PLACEHOLDER)) {
      const name = match[1]!;
      const resolved = env[name];
      if (resolved !== undefined && resolved.length >= 4) found.set(resolved, name);
    }
  } else if (Array.isArray(value)) {
    for (const item of value) referencedValues(item, env, found);
  } else if (value !== null && typeof value === 'object') {
    for (const item of Object.values(value)) referencedValues(item, env, found);
  }
  return found;
}

/** Every `${NAME}` the document references, with the path of the value it is in (comment keys skipped). */
export function referencedNames(value: unknown, path = ''): { name: string; path: string }[] {
  if (typeof value === 'string') return [...value.matchAll(PLACEHOLDER)].map((match) => ({ name: match[1]!, path: path || '(root)' }));
  if (Array.isArray(value)) return value.flatMap((item, index) => referencedNames(item, `${path}[${index}]`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value)
      .filter(([key]) => !key.startsWith('//'))
      .flatMap(([key, item]) => referencedNames(item, path ? `${path}.${key}` : key));
  }
  return [];
}
