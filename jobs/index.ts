import type { JobDefinition } from '../src/scheduler/job.js';
import { nightlySync } from './nightly-sync.js';
import { parquetExport } from './parquet-export.js';
import { rolesSnapshot } from './roles-snapshot.js';

/** Every scheduled job; `venue-etl jobs` lists them, `venue-etl serve` runs them. */
export const JOBS: readonly JobDefinition[] = [rolesSnapshot, nightlySync, parquetExport];
