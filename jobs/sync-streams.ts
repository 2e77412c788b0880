import { buildCatalogue, defaultStreams, type StreamSet } from '../src/catalogue/index.js';
import type { JobDefinition } from '../src/scheduler/job.js';

/** The run of a sync job: the streams of `sync.streams` (all of them by default) in `set`. */
export function syncStreams(set: StreamSet): JobDefinition['run'] {
  return (context) => {
    const { endpoints, sync } = context.config;
    return context.sync(defaultStreams(buildCatalogue(endpoints), sync.streams, set));
  };
}
