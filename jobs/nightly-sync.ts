import { ANALYTICS_STREAMS, SNAPSHOT_STREAMS } from '../src/catalogue/index.js';
import type { JobDefinition } from '../src/scheduler/job.js';

/** The analytics streams of `sync.streams` (all of them by default), incrementally. */
export const nightlySync: JobDefinition = {
  name: 'nightly-sync',
  description: 'incremental sync of the analytics streams up to yesterday (UTC)',
  defaultSchedule: '15 2 * * *',
  run(context) {
    const configured = context.config.sync.streams ?? [...ANALYTICS_STREAMS, ...context.config.endpoints.map((e) => e.stream)];
    const analytics = configured.filter((stream) => !(SNAPSHOT_STREAMS as readonly string[]).includes(stream));
    return context.sync(analytics);
  },
};
