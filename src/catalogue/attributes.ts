import { z } from 'zod';

/**
 * A time series `[[timestamp, count], …]`. Only the array shape is checked here: every pair is
 * checked by the normalizer in the same loop that turns it into rows, because a zod tuple schema
 * per pair runs at ~1.5M pairs/s and would dominate the load path (see bench/).
 */
export const seriesAttribute = z.array(z.unknown());

/**
 * A number of a summary: only the type is checked here (a string `"12"` fails with the field's
 * path); what the number may be is its metric's value domain, checked by the normalizer in the
 * same place for summaries and series points.
 */
export const numeric = z.number().nullable();
export const dateTime = z.string().refine((value) => !Number.isNaN(Date.parse(value)), 'must be an ISO 8601 timestamp');

/** `[key, count]` pairs (the rating summary's `rates_per_value`); their domains are checked like numbers. */
export const numberPairs = z.array(z.tuple([z.number(), z.number()]));
