import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Checks the `Authorization` header against the configured value (docs/api.md §5: the customer stores
 * the complete header value, e.g. `Basic …`). Both sides are hashed first so the comparison
 * takes the same time whatever the lengths, and a wrong credential's length leaks nothing.
 * The comparison is exact: the scheme's case and every space count, as the customer typed them.
 */
export function authorizationChecker(expected: string): (header: string | undefined) => boolean {
  const expectedDigest = digest(expected);
  return (header) => {
    // A missing header still costs one hash and compare, like a wrong one.
    const matches = timingSafeEqual(digest(header ?? ''), expectedDigest);
    return matches && header !== undefined;
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
