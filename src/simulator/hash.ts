/**
 * Small, fast, pure hashing. Every simulated value is a function of its inputs through these
 * helpers, never of a shared RNG, so the same request gives the same answer in any order and
 * under any concurrency. Strings (ids, names) are hashed once; hot loops mix integers only.
 */

/** FNV-1a (32-bit) of a string; `salt` changes the starting basis to get independent hashes. */
export function hashString(text: string, salt = 0): number {
  let hash = (0x811c9dc5 ^ salt) >>> 0;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return fmix32(hash);
}

/** murmur3's finalizer: spreads every input bit over the whole word. */
function fmix32(value: number): number {
  let h = value >>> 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Combines 32-bit integers (day numbers, hours, small ids) into one well-mixed 32-bit hash. */
export function mix(...parts: readonly number[]): number {
  let h = 0x2545f491;
  for (const part of parts) h = mixStep(h, part);
  return h;
}

/** One more part mixed into a hash: `mix(a, b, c) === mixStep(mix(a, b), c)`. Hot loops hash a prefix once. */
export function mixStep(hash: number, part: number): number {
  return fmix32(Math.imul(hash ^ (part >>> 0), 0x9e3779b1) + 0x7f4a7c15);
}

/** A hash as a number in [0, 1). */
export function unit(hash: number): number {
  return hash / 4294967296;
}

/** Seeds may exceed 32 bits: both halves count. */
export function seedKey(seed: number): number {
  return mix(seed >>> 0, Math.floor(seed / 4294967296) >>> 0);
}

/**
 * A draw named by a label: `draw(seed, 'venue-kind', v)`. Labels keep the draws of world
 * building, roles and events independent of each other.
 */
export function draw(seed: number, label: string, ...parts: readonly number[]): number {
  return mix(seedKey(seed), hashString(label), ...parts);
}

/** A deterministic pick from a non-empty list. */
export function pick<T>(items: readonly T[], hash: number): T {
  return items[hash % items.length] as T;
}
