/** The streams of the API spec, named after their endpoint's path segment (CONTRACT §3). */
export const ANALYTICS_STREAMS = [
  'venue-devices-history',
  'venue-devices-summary',
  'venue-users-history',
  'venue-users-login-methods',
  'venue-users-status',
  'venue-users-summary',
  'venue-remarketing-history',
  'rating-history',
  'rating-summary',
  'rating-statistics-summaries',
] as const;

export const SNAPSHOT_STREAMS = ['venue-roles', 'project-roles', 'accounts'] as const;

export const BUILTIN_STREAMS = [...ANALYTICS_STREAMS, ...SNAPSHOT_STREAMS] as const;
export type BuiltinStream = (typeof BUILTIN_STREAMS)[number];
