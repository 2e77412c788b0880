import { buildCatalogue, defaultStreams } from '../src/catalogue/index.js';
import type { JobDefinition } from '../src/scheduler/job.js';

/** Venue roles, project roles and the accounts they point to, as versions. */
export const rolesSnapshot: JobDefinition = {
  name: 'roles-snapshot',
  description: 'snapshot of venue roles, project roles and their accounts (role versions)',
  defaultSchedule: '5 2 * * *',
  run(context) {
    const { endpoints, sync } = context.config;
    return context.sync(defaultStreams(buildCatalogue(endpoints), sync.streams, 'snapshots'));
  },
};
