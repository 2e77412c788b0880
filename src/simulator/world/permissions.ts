/** Permission strings seen on roles (docs/api.md §2.2), in the order they are listed there. */
export const ALL_PERMISSIONS: readonly string[] = [
  'basic_data.read',
  'basic_data.list',
  'venues.read',
  'venues.list',
  'venues.create',
  'venues.update',
  'venues.destroy',
  'venues.roles.read',
  'venues.roles.list',
  'venues.roles.create',
  'venues.roles.update',
  'venues.roles.destroy',
  'venues.messages.read',
  'venues.messages.list',
  'venues.messages.create',
  'venues.messages.update',
  'venues.messages.destroy',
  'projects.read',
  'projects.list',
  'projects.create',
  'projects.update',
  'projects.destroy',
  'projects.roles.read',
  'projects.roles.list',
  'projects.roles.create',
  'projects.roles.update',
  'projects.roles.destroy',
];

export type RoleName = 'owner' | 'reader';

/** An owner may do everything; a reader only read and list. */
export function permissionsFor(name: RoleName): readonly string[] {
  return name === 'owner' ? ALL_PERMISSIONS : ALL_PERMISSIONS.filter((p) => p.endsWith('.read') || p.endsWith('.list'));
}

/** Keeps a permission list in the canonical order, so a changed role compares cleanly. */
export function sortPermissions(permissions: Iterable<string>): string[] {
  const set = new Set(permissions);
  return ALL_PERMISSIONS.filter((p) => set.has(p));
}
