export type { EndpointRow, EndpointKind, EndpointScope } from './endpoint-row.js';
export { isSnapshotEndpoint } from './endpoint-row.js';
export { ENDPOINTS } from './endpoints.js';
export { resourceAttributes, declaredAttributes } from './resources.js';
export type { ResourceType } from './resources.js';
export { buildCatalogue, fillTemplate } from './catalogue.js';
export type { Catalogue } from './catalogue.js';
export { ANALYTICS_STREAMS, SNAPSHOT_STREAMS, BUILTIN_STREAMS } from './stream-names.js';
