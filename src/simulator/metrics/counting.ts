/**
 * Integer helpers that keep the invariants between counts by construction rather than by
 * checking: a share of a count never exceeds it, a split always sums to the whole.
 */

/** `floor(count * rate + u)` capped at `count`: a randomly rounded share of a count. */
export function shareOf(count: number, rate: number, u: number): number {
  return Math.min(count, Math.max(0, Math.floor(count * rate + u)));
}

/** Like `shareOf`, but at least 1 of a non-zero count (someone is always unique). */
export function uniqueOf(count: number, rate: number, u: number): number {
  return count === 0 ? 0 : Math.max(1, shareOf(count, rate, u));
}

/**
 * Unique visitors over several periods: some of each period's uniques come back in another, so
 * the range's count lies between the busiest period's and the sum of all periods'.
 */
export function combineUnique(parts: readonly number[]): number {
  let sum = 0;
  let max = 0;
  let active = 0;
  for (const part of parts) {
    sum += part;
    if (part > max) max = part;
    if (part > 0) active += 1;
  }
  if (active <= 1) return sum;
  const overlap = 0.55 + 0.45 / Math.sqrt(active);
  return Math.max(max, Math.min(sum, Math.round(sum * overlap)));
}

/** Splits `total` by weights with the largest-remainder method: the parts sum to `total` exactly. */
export function splitByWeights(total: number, weights: readonly number[]): number[] {
  const weightSum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (weightSum > 0 ? (total * w) / weightSum : 0));
  const parts = exact.map(Math.floor);
  let rest = total - parts.reduce((a, b) => a + b, 0);
  const order = exact.map((value, i) => ({ i, remainder: value - Math.floor(value) })).sort((a, b) => b.remainder - a.remainder || a.i - b.i);
  for (const { i } of order) {
    if (rest <= 0) break;
    parts[i] = (parts[i] as number) + 1;
    rest -= 1;
  }
  return parts;
}

/** Weighted average of rates 1..5 from their counts, rounded to 2 decimals; null without rates. */
export function averageRate(countsByRate: readonly number[]): number | null {
  let count = 0;
  let sum = 0;
  countsByRate.forEach((c, i) => {
    count += c;
    sum += c * (i + 1);
  });
  return count === 0 ? null : Math.round((sum / count) * 100) / 100;
}
