import { z } from 'zod';

/**
 * A time series `[[timestamp, count], …]`. Only the array shape is checked here: every pair is
 * checked by the normalizer in the same loop that turns it into rows, because a zod tuple schema
 * per pair runs at ~1.5M pairs/s and would dominate the load path (see bench/).
 */
export const seriesAttribute = z.array(z.unknown());

export const count = z.number().int().nonnegative();
export const number = z.number();
export const dateTime = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'must be an ISO 8601 timestamp');

/** `[rate, count]` pairs of the rating summary. */
export const ratePairs = z.array(z.tuple([z.number().int(), count]));
