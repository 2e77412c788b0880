import type { EndpointRow } from './endpoint-row.js';
import { metricDomains as d, RATES_PER_VALUE, resourceAttributes as r } from './resources.js';

/** The venue statistics endpoints 4.1–4.9 share one path shape: `/analytics/<stream>/{venue_id}/`. */
const analytics = (stream: string): string => `/analytics/${stream}/{venue_id}/`;

/** A statistics row's metrics and their domains, from the resource's domain table. */
const metricsOf = (domains: (typeof d)[keyof typeof d]) => ({ metrics: Object.keys(domains), domains });

/** One row per endpoint of spec §4 (4.17 is pagination, spec §8). */
export const ENDPOINTS: readonly EndpointRow[] = [
  { spec: '4.1', stream: 'venue-devices-history', kind: 'series', scope: 'venue', path: analytics('venue-devices-history'), dates: 'required', list: false, resourceType: 'venue-devices-history', attributes: r['venue-devices-history'], ...metricsOf(d['venue-devices-history']) },
  { spec: '4.2', stream: 'venue-devices-summary', kind: 'summary', scope: 'venue', path: analytics('venue-devices-summary'), dates: 'optional', list: false, resourceType: 'venue-devices-summary', attributes: r['venue-devices-summary'], ...metricsOf(d['venue-devices-summary']) },
  { spec: '4.3', stream: 'venue-users-history', kind: 'series', scope: 'venue', path: analytics('venue-users-history'), dates: 'required', list: false, resourceType: 'venue-users-history', attributes: r['venue-users-history'], ...metricsOf(d['venue-users-history']) },
  { spec: '4.4', stream: 'venue-users-login-methods', kind: 'summary', scope: 'venue', path: analytics('venue-users-login-methods'), dates: 'required', list: false, resourceType: 'venue-users-login-methods', attributes: r['venue-users-login-methods'], ...metricsOf(d['venue-users-login-methods']) },
  { spec: '4.5', stream: 'venue-users-status', kind: 'summary', scope: 'venue', path: analytics('venue-users-status'), dates: 'required', list: false, resourceType: 'venue-users-status', attributes: r['venue-users-status'], ...metricsOf(d['venue-users-status']), deprecated: true },
  { spec: '4.6', stream: 'venue-users-summary', kind: 'summary', scope: 'venue', path: analytics('venue-users-summary'), dates: 'optional', list: false, resourceType: 'venue-users-summary', attributes: r['venue-users-summary'], ...metricsOf(d['venue-users-summary']) },
  { spec: '4.7', stream: 'venue-remarketing-history', kind: 'series', scope: 'venue', path: analytics('venue-remarketing-history'), dates: 'required', list: false, resourceType: 'venue-remarketing-history', attributes: r['venue-remarketing-history'], ...metricsOf(d['venue-remarketing-history']) },
  { spec: '4.8', stream: 'rating-history', kind: 'series', scope: 'venue', path: analytics('rating-history'), dates: 'required', list: false, resourceType: 'rating-history', attributes: r['rating-history'], ...metricsOf(d['rating-history']) },
  { spec: '4.9', stream: 'rating-summary', kind: 'summary', scope: 'venue', path: analytics('rating-summary'), dates: 'required', list: false, resourceType: 'rating', attributes: r.rating, ...metricsOf(d.rating), pairMetrics: [RATES_PER_VALUE] },
  { spec: '4.10', stream: 'rating-statistics-summaries', kind: 'summary', scope: 'venue', path: '/statistics/rating-statistics-summaries/', query: { 'filter[venue]': '{venue_id}' }, dates: 'required', list: true, resourceType: 'rating-statistics-summary', attributes: r['rating-statistics-summary'], ...metricsOf(d['rating-statistics-summary']), venueFrom: 'relationship' },
  { spec: '4.12', stream: 'venue-roles', kind: 'roles', scope: 'venue', path: '/core/venue-roles/', query: { 'filter[venue]': '{venue_id}' }, dates: 'none', list: true, resourceType: 'venue-roles', attributes: r['venue-roles'], metrics: [], domains: {} },
  { spec: '4.13', stream: 'project-roles', kind: 'roles', scope: 'project', path: '/core/project-roles/', query: { 'filter[project]': '{project_id}' }, dates: 'none', list: true, resourceType: 'project-roles', attributes: r['project-roles'], metrics: [], domains: {} },
  // 4.14 (by ids) and 4.16 (`me`) feed the accounts stream; 4.15 (one id) is the same resource.
  { spec: '4.14', stream: 'accounts', kind: 'accounts', scope: 'account', path: '/accounts/filtered-accounts/', query: { 'filter[id][in]': '{account_ids}' }, dates: 'none', list: true, resourceType: 'accounts', attributes: r.accounts, metrics: [], domains: {} },
  { spec: '4.15', stream: 'accounts', kind: 'accounts', scope: 'account', path: '/accounts/filtered-accounts/{account_id}/', dates: 'none', list: false, resourceType: 'accounts', attributes: r.accounts, metrics: [], domains: {} },
  { spec: '4.16', stream: 'accounts', kind: 'accounts', scope: 'account', path: '/accounts/filtered-accounts/me/', dates: 'none', list: false, resourceType: 'accounts', attributes: r.accounts, metrics: [], domains: {} },
];
