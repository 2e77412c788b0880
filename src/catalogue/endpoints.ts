import type { DateParams, EndpointRow, Paginator } from './endpoint-row.js';
import { metricDomains as d, RATES_PER_VALUE, resourceAttributes as r } from './resources.js';

/** The API's date filters (docs/api-assumptions.md, Dates). */
export const DATES: DateParams = { from: 'from', to: 'to' };
export const SINGLE: Paginator = { type: 'single' };
/** Page-based pagination, the API's only strategy. */
export const PAGES: Paginator = { type: 'page-number', number: 'page[number]', size: 'page[size]' };

/** The venue statistics endpoints share one path shape: `/analytics/<stream>/{venue_id}/`. */
const analytics = (stream: string) => ({ stream, scope: 'venue', path: `/analytics/${stream}/{venue_id}/`, dates: DATES, paginator: SINGLE }) as const;

/** A statistics row's metrics and their domains, from the resource's domain table. */
const metricsOf = (domains: (typeof d)[keyof typeof d]) => ({ metrics: Object.keys(domains), domains });

const snapshot = { metrics: [], domains: {}, paginator: PAGES } as const;

/**
 * One row per endpoint the API describes, in the order streams are listed and run. Not rows:
 * one account by id (the same resource as the batch lookup, which needs a fiftieth of the
 * requests) and pagination (the `paginator` of the list rows).
 */
export const ENDPOINTS: readonly EndpointRow[] = [
  {
    ...analytics('venue-devices-history'),
    kind: 'series',
    resourceType: 'venue-devices-history',
    attributes: r['venue-devices-history'],
    ...metricsOf(d['venue-devices-history']),
  },
  {
    ...analytics('venue-devices-summary'),
    kind: 'summary',
    resourceType: 'venue-devices-summary',
    attributes: r['venue-devices-summary'],
    ...metricsOf(d['venue-devices-summary']),
  },
  {
    ...analytics('venue-users-history'),
    kind: 'series',
    resourceType: 'venue-users-history',
    attributes: r['venue-users-history'],
    ...metricsOf(d['venue-users-history']),
  },
  {
    ...analytics('venue-users-login-methods'),
    kind: 'summary',
    resourceType: 'venue-users-login-methods',
    attributes: r['venue-users-login-methods'],
    ...metricsOf(d['venue-users-login-methods']),
  },
  // Deprecated upstream (the users summary's unique-logins and confirmed-users replace it) but
  // still served: loaded like the others, so a history already held stays complete.
  {
    ...analytics('venue-users-status'),
    kind: 'summary',
    resourceType: 'venue-users-status',
    attributes: r['venue-users-status'],
    ...metricsOf(d['venue-users-status']),
  },
  {
    ...analytics('venue-users-summary'),
    kind: 'summary',
    resourceType: 'venue-users-summary',
    attributes: r['venue-users-summary'],
    ...metricsOf(d['venue-users-summary']),
  },
  {
    ...analytics('venue-remarketing-history'),
    kind: 'series',
    resourceType: 'venue-remarketing-history',
    attributes: r['venue-remarketing-history'],
    ...metricsOf(d['venue-remarketing-history']),
  },
  { ...analytics('rating-history'), kind: 'series', resourceType: 'rating-history', attributes: r['rating-history'], ...metricsOf(d['rating-history']) },
  { ...analytics('rating-summary'), kind: 'summary', resourceType: 'rating', attributes: r.rating, ...metricsOf(d.rating), pairMetrics: [RATES_PER_VALUE] },
  {
    stream: 'rating-statistics-summaries',
    kind: 'summary',
    scope: 'venue',
    path: '/statistics/rating-statistics-summaries/',
    query: { 'filter[venue]': '{venue_id}' },
    dates: DATES,
    paginator: PAGES,
    resourceType: 'rating-statistics-summary',
    attributes: r['rating-statistics-summary'],
    ...metricsOf(d['rating-statistics-summary']),
    venueFrom: 'relationship',
  },
  {
    ...snapshot,
    stream: 'venue-roles',
    kind: 'roles',
    scope: 'venue',
    path: '/core/venue-roles/',
    query: { 'filter[venue]': '{venue_id}' },
    resourceType: 'venue-roles',
    attributes: r['venue-roles'],
  },
  {
    ...snapshot,
    stream: 'project-roles',
    kind: 'roles',
    scope: 'project',
    path: '/core/project-roles/',
    query: { 'filter[project]': '{project_id}' },
    resourceType: 'project-roles',
    attributes: r['project-roles'],
  },
  // The accounts stream: the accounts the roles name, by id in batches, and the caller's own.
  {
    ...snapshot,
    stream: 'accounts',
    kind: 'accounts',
    scope: 'account',
    path: '/accounts/filtered-accounts/',
    query: { 'filter[id][in]': '{account_ids}' },
    resolve: { placeholder: 'account_ids', parents: ['venue-roles', 'project-roles'], relationship: 'account' },
    resourceType: 'accounts',
    attributes: r.accounts,
  },
  {
    ...snapshot,
    stream: 'accounts',
    kind: 'accounts',
    scope: 'account',
    path: '/accounts/filtered-accounts/me/',
    paginator: SINGLE,
    caller: true,
    resourceType: 'accounts',
    attributes: r.accounts,
  },
];
