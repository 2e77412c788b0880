import { buildCatalogue, defaultStreams } from '../src/catalogue/index.js';
import type { JobDefinition } from '../src/scheduler/job.js';

/** The streams of `sync.streams` (all of them by default) read by window, incrementally. */
export const nightlySync: JobDefinition = {
  name: 'nightly-sync',
  description: 'incremental sync of the analytics streams up to yesterday (UTC)',
  defaultSchedule: '15 2 * * *',
  run(context) {
    const { endpoints, sync } = context.config;
    return context.sync(defaultStreams(buildCatalogue(endpoints), sync.streams, 'windowed'));
  },
};
