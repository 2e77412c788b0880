import { historyGrains, type Config } from '../config/index.js';

export interface EmptyReportContext {
  readonly config: Pick<Config, 'sync'>;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly parquet: boolean;
}

/**
 * What to do when a report found no rows because what it reads was never loaded: `peak-hours`
 * reads the hour grain, which a sync loads only when `sync.historyGrain` includes "hour" (the
 * default is the day alone). Undefined for a report whose empty result needs no explaining.
 */
export function emptyReportHint(report: string, context: EmptyReportContext): string | undefined {
  if (report !== 'peak-hours') return undefined;
  const backfill = `venue-etl backfill --from ${context.from ?? 'DATE'} --to ${context.to ?? 'DATE'} --grain hour`;
  const exported = context.parquet ? ', then `venue-etl export`' : '';
  if (historyGrains(context.config).includes('hour')) {
    return `peak-hours found no hourly data for these days and venues. sync.historyGrain includes "hour", so each sync loads the hours of its days; load earlier days with \`${backfill}\`${exported}.`;
  }
  return (
    'peak-hours found no hourly data: it reads the hour grain of the history streams, which sync loads only when sync.historyGrain includes "hour" (the default is "day"). ' +
    `To get it, set "historyGrain": ["day", "hour"] in the config's sync block (each sync then loads hours too), and load past days with \`${backfill}\`${exported}.`
  );
}
