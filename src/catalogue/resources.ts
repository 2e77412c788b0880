import { z } from 'zod';
import { count, dateTime, number, ratePairs, seriesAttribute } from './attributes.js';

/**
 * Attribute schemas of every resource type of spec §2, field for field. Objects are loose:
 * unknown attributes pass and are reported as drift by the normalizer; a missing or wrongly typed
 * attribute fails the slice with the field's name.
 */
export const resourceAttributes = {
  'venue-devices-history': z.looseObject({
    detected: seriesAttribute,
    'unique-detected': seriesAttribute,
    'unique-authenticated': seriesAttribute,
    authenticated: seriesAttribute,
  }),
  'venue-devices-summary': z.looseObject({
    detected: count,
    'unique-detected': count,
    'unique-authenticated': count,
    authenticated: count,
  }),
  'venue-users-history': z.looseObject({
    logins: seriesAttribute,
    'unique-logins': seriesAttribute,
  }),
  'venue-users-login-methods': z.looseObject({
    email: count,
    phone: count,
    autologin: count,
    'social-a': count,
    'social-b': count,
    'social-c': count,
    'social-d': count,
  }),
  'venue-users-status': z.looseObject({
    inactive: count,
    active: count,
  }),
  'venue-users-summary': z.looseObject({
    logins: count,
    'unique-logins': count,
    'confirmed-users': count,
    'returning-users': count,
  }),
  'venue-remarketing-history': z.looseObject({
    embeds: seriesAttribute,
  }),
  'rating-history': z.looseObject({
    'rates-average': seriesAttribute,
    'rates-count': seriesAttribute,
  }),
  // The one resource with snake_case attributes (spec 4.9).
  rating: z.looseObject({
    rates_count: count,
    average_rate: number.nullable(),
    rates_per_value: ratePairs,
  }),
  'rating-statistics-summary': z.looseObject({
    'requests-commented': count,
    'requests-sent': count,
    'requests-opened': count,
    'requests-rated': count,
  }),
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
