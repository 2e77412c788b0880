import type { JobDefinition } from '../src/scheduler/job.js';
import { syncStreams } from './sync-streams.js';

/** Venue roles, project roles and the accounts they point to, as versions. */
export const rolesSnapshot: JobDefinition = {
  name: 'roles-snapshot',
  description: 'snapshot of venue roles, project roles and their accounts (role versions)',
  defaultSchedule: '5 2 * * *',
  run: syncStreams('snapshots'),
};
