import type { JobDefinition } from '../src/scheduler/job.js';

/** Rewrites the Parquet partitions whose rows changed since the last export. */
export const parquetExport: JobDefinition = {
  name: 'parquet-export',
  description: 'incremental Parquet export of every warehouse table',
  defaultSchedule: '45 2 * * *',
  run(context) {
    return context.exportParquet();
  },
};
