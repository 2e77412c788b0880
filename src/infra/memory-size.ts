/**
 * Sizes as DuckDB's memory_limit takes them: "128MB" (10^6 bytes), "1GiB" (2^30). One reader
 * for the config's check and for the SET statement the size is written into.
 */
const SIZE = /^(\d+(?:\.\d+)?)\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i;

/** Bytes of `size`, or NaN when it is not a size. */
export function sizeInBytes(size: string): number {
  const match = SIZE.exec(size);
  if (!match) return Number.NaN;
  const unit = match[2].toUpperCase();
  const power = 'KMGT'.indexOf(unit[0]) + 1;
  return Number(match[1]) * (unit.includes('I') ? 1024 : 1000) ** power;
}

export function isSize(size: string): boolean {
  return !Number.isNaN(sizeInBytes(size));
}
