import { SNAPSHOT_STREAMS } from '../src/catalogue/index.js';
import type { JobDefinition } from '../src/scheduler/job.js';

/** Venue roles, project roles and the accounts they point to, as versions. */
export const rolesSnapshot: JobDefinition = {
  name: 'roles-snapshot',
  description: 'snapshot of venue roles, project roles and their accounts (role versions)',
  defaultSchedule: '5 2 * * *',
  run(context) {
    const configured = context.config.sync.streams;
    const streams = configured ? SNAPSHOT_STREAMS.filter((s) => configured.includes(s)) : [...SNAPSHOT_STREAMS];
    return context.sync(streams);
  },
};
