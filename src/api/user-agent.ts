import { readFileSync } from 'node:fs';

let cached: string | undefined;

/** `venue-etl/<version>`, the version read once from the package's own package.json. */
export function userAgent(): string {
  cached ??= `venue-etl/${packageVersion()}`;
  return cached;
}

// Walk up instead of a fixed `../../package.json`: the module runs from `src/api/` in tests
// and from `dist/src/api/` when built.
function packageVersion(): string {
  let dir = new URL('.', import.meta.url);
  for (let depth = 0; depth < 5; depth++) {
    try {
      const pkg = JSON.parse(readFileSync(new URL('package.json', dir), 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'venue-etl' && pkg.version) return pkg.version;
    } catch {
      // No package.json at this level; keep walking up.
    }
    dir = new URL('..', dir);
  }
  return '0.0.0';
}
