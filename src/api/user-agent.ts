import { packageInfo } from '../infra/package-root.js';

let cached: string | undefined;

/** `venue-etl/<version>`, the version read once from the package's own package.json. */
export function userAgent(): string {
  cached ??= `venue-etl/${packageInfo().version}`;
  return cached;
}
