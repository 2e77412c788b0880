import { DEFAULT_QUERY_MEMORY_LIMIT, type Config } from '../config/schema.js';
import { isS3Target } from '../lake/target.js';
import { openParquetSource } from './parquet-source.js';
import { watched, type WatchOptions } from './watchdog.js';
import { openWarehouseSource, type QuerySource, type WarehouseSourceOptions } from './warehouse-source.js';
import { BUILT_IN_LABEL_INPUT, venueLabelInput, type VenueLabelInput } from '../venue-names/index.js';

/** Waiting for another process's write lock (see WarehouseSourceOptions), and the watch over the work (watchdog.ts). */
export type QuerySourceOptions = Pick<WarehouseSourceOptions, 'waitMs' | 'logger'> & Omit<WatchOptions, 'memoryLimit'>;

/**
 * The paths the read side needs, and its limits (query.memoryLimit; defaults apply without them),
 * and the config's venues and endpoints for the venue labels (src/venue-names): without them
 * venues are named by the warehouse alone.
 */
export type QuerySourcePaths = Pick<Config, 'warehouse' | 'parquet'> & { readonly query?: Pick<Config['query'], 'memoryLimit'> } & Partial<
    Pick<Config, 'scope' | 'endpoints'>
  >;

function labelsOf(config: QuerySourcePaths): VenueLabelInput {
  return config.scope === undefined ? BUILT_IN_LABEL_INPUT : venueLabelInput({ scope: config.scope, endpoints: config.endpoints ?? [] });
}

/**
 * The warehouse file read-only, or with `--parquet` the exported files behind same-named views:
 * a local folder, or an `s3://` lake through DuckDB's httpfs. Either way sealed before the
 * first statement a user typed (lock-down.ts): bounded in memory, no other file reachable.
 */
export function openQuerySource(config: QuerySourcePaths, parquet: boolean, options: QuerySourceOptions = {}): Promise<QuerySource> {
  const memoryLimit = config.query?.memoryLimit ?? DEFAULT_QUERY_MEMORY_LIMIT;
  const labels = labelsOf(config);
  if (!parquet) return openWarehouseSource(config.warehouse.path, { ...pick(options), memoryLimit, labels });
  return isS3Target(config.parquet.dir) ? openLake(config, memoryLimit, labels) : openParquetSource(config.parquet.dir, memoryLimit, labels);
}

function pick(options: QuerySourceOptions): Pick<WarehouseSourceOptions, 'waitMs' | 'logger'> {
  return { ...(options.waitMs === undefined ? {} : { waitMs: options.waitMs }), ...(options.logger ? { logger: options.logger } : {}) };
}

/** Loaded only for an s3:// lake: it brings the AWS SDK, 200-400 ms to import (see export-parquet.ts). */
async function openLake(config: QuerySourcePaths, memoryLimit: string, labels: VenueLabelInput): Promise<QuerySource> {
  const { openS3Source } = await import('./s3-source.js');
  return openS3Source(config.parquet.dir, config.parquet.s3, memoryLimit, labels);
}

/**
 * Runs `work` on a source and always closes it (releasing the file lock). SIGINT/SIGTERM
 * (`options.signal`) and the time limit (`options.timeoutMs`) interrupt the running query.
 */
export async function withQuerySource<T>(
  config: QuerySourcePaths,
  parquet: boolean,
  work: (source: QuerySource) => Promise<T>,
  options: QuerySourceOptions = {},
): Promise<T> {
  const source = await openQuerySource(config, parquet, options);
  try {
    const memoryLimit = config.query?.memoryLimit ?? DEFAULT_QUERY_MEMORY_LIMIT;
    options.logger?.debug({ source: source.kind, memoryLimit, timeoutMs: options.timeoutMs }, 'query running');
    const interrupt = (): void => {
      source.connection.interrupt();
      source.dryRun?.interrupt();
    };
    return await watched(interrupt, { ...options, memoryLimit }, () => work(source));
  } finally {
    await source.close();
  }
}
