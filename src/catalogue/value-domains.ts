/**
 * The values a metric can take, declared per attribute in the catalogue (from the types of
 * docs/api.md §1 and §2.1) and enforced in one place, for series points and summary attributes alike
 * (src/normalize/value-check.ts). A value outside its domain fails the slice: a count of -1, 2.5
 * or 1e308 or a rate of 7 is not data, and storing it would make every sum wrong.
 */
export interface ValueDomain {
  /** How an error message names the domain: "must be a count …". */
  readonly description: string;
  readonly integer: boolean;
  readonly min: number;
  readonly max: number;
  /** Whether null is a value (the API's "no data", e.g. the average of no rates). */
  readonly nullable: boolean;
  /** A value outside [min, max] that the API uses for "none" (0 as the average of no rates). */
  readonly none?: number;
}

/**
 * `<count>`: a whole number, never negative. The upper end is 2^53 - 1: JSON can carry a larger
 * integer, but a double cannot hold it exactly (2^53 + 1 parses as 2^53), so it would be stored
 * silently rounded.
 */
export const COUNT: ValueDomain = {
  description: 'a count (a whole number from 0 to 2^53 - 1)',
  integer: true,
  min: 0,
  max: Number.MAX_SAFE_INTEGER,
  nullable: false,
};

/** An average rate (`rates-average`): 1 to 5; null for a period with no rates (docs/api.md §4.8). */
export const RATE: ValueDomain = { description: 'a rate from 1 to 5 or null', integer: false, min: 1, max: 5, nullable: true };

/**
 * `average_rate` of the rating summary: typed as a number (docs/api.md §2.1), so an API may send 0 for
 * a range without rates where the history sends null; both mean "no rates".
 */
export const AVERAGE_RATE: ValueDomain = {
  description: 'a rate from 1 to 5, or 0 or null for no rates',
  integer: false,
  min: 1,
  max: 5,
  nullable: true,
  none: 0,
};

/** The rate of a `[rate, count]` pair: 1 to 5 (docs/api.md §2.1, `rates_per_value`). */
export const RATE_VALUE: ValueDomain = { description: 'a rate value (a whole number from 1 to 5)', integer: true, min: 1, max: 5, nullable: false };

/**
 * Config endpoints (`endpoints[]`): their attributes' types are not known, so any finite number
 * or null passes, as the platform's "integer, except where stated" cannot be relied on there.
 */
export const ANY_NUMBER: ValueDomain = {
  description: 'a finite number or null',
  integer: false,
  min: -Number.MAX_VALUE,
  max: Number.MAX_VALUE,
  nullable: true,
};

/** `[key, count]` pairs that become metrics `<attribute>.<key>`, e.g. `rates_per_value.1`. */
export interface PairMetric {
  readonly attribute: string;
  readonly key: ValueDomain;
  readonly value: ValueDomain;
}
