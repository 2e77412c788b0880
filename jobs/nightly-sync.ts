import type { JobDefinition } from '../src/scheduler/job.js';
import { syncStreams } from './sync-streams.js';

/** The streams of `sync.streams` (all of them by default) read by window, incrementally. */
export const nightlySync: JobDefinition = {
  name: 'nightly-sync',
  description: 'incremental sync of the analytics streams up to yesterday (UTC)',
  defaultSchedule: '15 2 * * *',
  run: syncStreams('windowed'),
};
