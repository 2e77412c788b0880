import { hashString, mix, seedKey } from './hash.js';

/**
 * A UUID (version 4 layout, RFC 9562 variant, so strict validators accept it) derived from the
 * seed and labels: the same world always has the same ids. Two independent 32-bit string hashes
 * keep collisions out of reach for the few thousand ids a world has.
 */
export function uuidFrom(seed: number, ...labels: readonly (string | number)[]): string {
  const text = labels.join('\u0001');
  const a = hashString(text, 0);
  const b = hashString(text, 0x5bd1e995);
  const hex = [0, 1, 2, 3].map((i) => mix(seedKey(seed), a, b, i).toString(16).padStart(8, '0')).join('');
  const variant = ((parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
