import { createHash } from 'node:crypto';

/** The event id is the SHA-256 (hex) of the raw body bytes: a redelivered body has the same id. */
export function eventIdOf(body: Buffer): string {
  return createHash('sha256').update(body).digest('hex');
}
