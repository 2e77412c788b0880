import { resourceAttributes, type EndpointRow } from '../catalogue/index.js';
import type { DriftReporter } from './drift.js';
import { checkResource, type ResourceLike } from './resource.js';
import { schemaError } from './schema-error.js';

/** An account as the API returns it now. */
export interface AccountSnapshotRow {
  readonly accountId: string;
  readonly email: string;
  readonly fullName: string;
  readonly confirmedAt: string | null;
  readonly language: string;
  readonly rolesNames: readonly string[];
  /** Stored as JSON: the spec shows only empty arrays, so their element type is unknown. */
  readonly tags: readonly unknown[];
  readonly createdById: string | null;
  readonly isMe: boolean;
}

/** The row's schema checked the attributes (and reported drift); this reads them typed. */
const AccountAttributes = resourceAttributes.accounts;

export function accountFromResource(endpoint: EndpointRow, resource: ResourceLike, isMe: boolean, where: string, drift: DriftReporter): AccountSnapshotRow {
  const a = AccountAttributes.parse(checkResource(endpoint, resource, where, drift));
  if (typeof resource.id !== 'string' || resource.id === '') throw schemaError(endpoint.stream, `${where}.id`, 'is missing');
  return {
    accountId: resource.id,
    email: a.email,
    fullName: a['full-name'],
    confirmedAt: a['confirmed-at'],
    language: a.language,
    rolesNames: a['roles-names'],
    tags: a.tags,
    createdById: a['created-by-id'],
    isMe,
  };
}
