export { createApiClient, JSON_API_MEDIA_TYPE, DEFAULT_RETRY_BASE_MS, DEFAULT_RETRY_MAX_BACKOFF_MS } from './client.js';
export type { ApiClient, ApiClientOptions, RequestContext, PaginateContext } from './client.js';
export { ApiError, ApiErrorCode, isApiError } from './errors.js';
export type { ApiErrorOptions } from './errors.js';
export { isListDocument, toJsonApiDocument, expectList, expectSingle, describeApiErrors } from './jsonapi.js';
export type {
  JsonApiDocument,
  JsonApiSingleDocument,
  JsonApiListDocument,
  JsonApiResource,
  JsonApiIdentifier,
  JsonApiRelationship,
  JsonApiLinks,
} from './jsonapi.js';
export { followPages, DEFAULT_MAX_PAGES } from './paginate.js';
export { backoffDelay, parseRetryAfter, withRetries } from './retry-policy.js';
export type { RetryPolicy } from './retry-policy.js';
export { Throttle } from './throttle.js';
export type { ThrottleOptions, ThrottleSlot } from './throttle.js';
export type { ClientStats, RequestCounts } from './stats.js';
