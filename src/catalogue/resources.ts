import { z } from 'zod';
import { dateTime, numberPairs, numeric, seriesAttribute } from './attributes.js';
import { AVERAGE_RATE, COUNT, RATE, RATE_VALUE, type PairMetric, type ValueDomain } from './value-domains.js';

type Domains = Readonly<Record<string, ValueDomain>>;

/**
 * The metric attributes of each statistics resource of docs/api.md §2.1, in its order, with the
 * values each can take. Counts are the platform's `<count>` ("an integer, except where stated");
 * the rating attributes are what §2.1 and §4.8 say they are.
 */
export const metricDomains = {
  'venue-devices-history': { detected: COUNT, 'unique-detected': COUNT, 'unique-authenticated': COUNT, authenticated: COUNT },
  'venue-devices-summary': { detected: COUNT, 'unique-detected': COUNT, 'unique-authenticated': COUNT, authenticated: COUNT },
  'venue-users-history': { logins: COUNT, 'unique-logins': COUNT },
  'venue-users-login-methods': {
    email: COUNT,
    phone: COUNT,
    autologin: COUNT,
    'social-a': COUNT,
    'social-b': COUNT,
    'social-c': COUNT,
    'social-d': COUNT,
  },
  'venue-users-status': { inactive: COUNT, active: COUNT },
  'venue-users-summary': { logins: COUNT, 'unique-logins': COUNT, 'confirmed-users': COUNT, 'returning-users': COUNT },
  'venue-remarketing-history': { embeds: COUNT },
  'rating-history': { 'rates-average': RATE, 'rates-count': COUNT },
  // The one resource with snake_case attributes (docs/api.md §4.9).
  rating: { rates_count: COUNT, average_rate: AVERAGE_RATE },
  'rating-statistics-summary': { 'requests-commented': COUNT, 'requests-sent': COUNT, 'requests-opened': COUNT, 'requests-rated': COUNT },
} as const satisfies Readonly<Record<string, Domains>>;

/** `rates_per_value`: the number of rates for each value 1 to 5 (docs/api.md §4.9). */
export const RATES_PER_VALUE: PairMetric = { attribute: 'rates_per_value', key: RATE_VALUE, value: COUNT };

const seriesOf = (domains: Domains): z.ZodObject => z.looseObject(Object.fromEntries(Object.keys(domains).map((name) => [name, seriesAttribute])));
const numbersOf = (domains: Domains): Record<string, typeof numeric> => Object.fromEntries(Object.keys(domains).map((name) => [name, numeric]));

/**
 * Attribute schemas of every resource type of docs/api.md §2, field for field. Objects are loose:
 * unknown attributes pass and are reported as drift by the normalizer; a missing or wrongly typed
 * attribute fails the slice with the field's name. Metric values are checked against their
 * domains by the normalizer, not here (one place for series and summaries).
 */
export const resourceAttributes = {
  'venue-devices-history': seriesOf(metricDomains['venue-devices-history']),
  'venue-devices-summary': z.looseObject(numbersOf(metricDomains['venue-devices-summary'])),
  'venue-users-history': seriesOf(metricDomains['venue-users-history']),
  'venue-users-login-methods': z.looseObject(numbersOf(metricDomains['venue-users-login-methods'])),
  'venue-users-status': z.looseObject(numbersOf(metricDomains['venue-users-status'])),
  'venue-users-summary': z.looseObject(numbersOf(metricDomains['venue-users-summary'])),
  'venue-remarketing-history': seriesOf(metricDomains['venue-remarketing-history']),
  'rating-history': seriesOf(metricDomains['rating-history']),
  rating: z.looseObject({ ...numbersOf(metricDomains.rating), [RATES_PER_VALUE.attribute]: numberPairs }),
  'rating-statistics-summary': z.looseObject(numbersOf(metricDomains['rating-statistics-summary'])),
  'venue-roles': z.looseObject({
    name: z.string(),
    'inherited-from': z.string().nullable().optional(),
    permissions: z.array(z.string()),
  }),
  'project-roles': z.looseObject({
    name: z.string(),
    permissions: z.array(z.string()),
  }),
  accounts: z.looseObject({
    email: z.string(),
    'full-name': z.string(),
    'confirmed-at': dateTime.nullable(),
    language: z.string(),
    'roles-names': z.array(z.string()),
    tags: z.array(z.unknown()),
    'created-by-id': z.string().nullable(),
  }),
} as const;

export type ResourceType = keyof typeof resourceAttributes;

/** Declared attribute names of a schema, to tell unknown (drifted) attributes apart. */
export function declaredAttributes(schema: z.ZodObject): ReadonlySet<string> {
  return new Set(Object.keys(schema.shape));
}
