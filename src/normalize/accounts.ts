import type { EndpointRow } from '../catalogue/index.js';
import type { DriftReporter } from './drift.js';
import { checkResource, type ResourceLike } from './resource.js';

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

export function accountFromResource(endpoint: EndpointRow, resource: ResourceLike, isMe: boolean, where: string, drift: DriftReporter): AccountSnapshotRow {
  const a = checkResource(endpoint, resource, where, drift);
  return {
    accountId: resource.id as string,
    email: a.email as string,
    fullName: a['full-name'] as string,
    confirmedAt: (a['confirmed-at'] as string | null) ?? null,
    language: a.language as string,
    rolesNames: a['roles-names'] as string[],
    tags: a.tags as unknown[],
    createdById: (a['created-by-id'] as string | null) ?? null,
    isMe,
  };
}
