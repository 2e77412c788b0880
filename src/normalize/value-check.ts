import type { ValueDomain } from '../catalogue/index.js';

/**
 * Why a value is outside its metric's domain, or undefined when it is inside: the one check of
 * metric values, for series points and summary numbers alike.
 */
export function valueProblem(domain: ValueDomain, value: number | null): string | undefined {
  if (value === null) return domain.nullable ? undefined : `must be ${domain.description}, got null`;
  if (value === domain.none) return undefined;
  if (value >= domain.min && value <= domain.max && (!domain.integer || Number.isInteger(value))) return undefined;
  // Past 2^53 JSON.parse has already rounded: say so, the number shown is not the one sent.
  const rounded = domain.integer && Number.isInteger(value) && Math.abs(value) > Number.MAX_SAFE_INTEGER ? ' (as parsed: a double cannot hold it exactly)' : '';
  return `must be ${domain.description}, got ${value}${rounded}`;
}
