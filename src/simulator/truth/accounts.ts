import type { Resource } from '../jsonapi.js';
import type { Account } from '../world/world.js';

export function accountResource(account: Account): Resource {
  return {
    type: 'accounts',
    id: account.id,
    attributes: {
      email: account.email,
      'full-name': account.fullName,
      'confirmed-at': account.confirmedAt,
      language: account.language,
      'roles-names': [...account.rolesNames],
      tags: [...account.tags],
      'created-by-id': account.createdById,
    },
  };
}
