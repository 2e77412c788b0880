import type { Config } from '../config/index.js';
import { isS3Target } from '../lake/target.js';
import { openParquetSource } from './parquet-source.js';
import { openWarehouseSource, type QuerySource, type WarehouseSourceOptions } from './warehouse-source.js';

/** Waiting for another process's write lock (see WarehouseSourceOptions). */
export type QuerySourceOptions = Pick<WarehouseSourceOptions, 'waitMs' | 'logger'>;

/** The two paths the read side needs. */
export type QuerySourcePaths = Pick<Config, 'warehouse' | 'parquet'>;

/**
 * The warehouse file read-only, or with `--parquet` the exported files behind same-named views:
 * a local folder, or an `s3://` lake through DuckDB's httpfs.
 */
export function openQuerySource(config: QuerySourcePaths, parquet: boolean, options: QuerySourceOptions = {}): Promise<QuerySource> {
  if (!parquet) return openWarehouseSource(config.warehouse.path, options);
  return isS3Target(config.parquet.dir) ? openLake(config) : openParquetSource(config.parquet.dir);
}

/** Loaded only for an s3:// lake: it brings the AWS SDK, 200-400 ms to import (see export-parquet.ts). */
async function openLake(config: QuerySourcePaths): Promise<QuerySource> {
  const { openS3Source } = await import('./s3-source.js');
  return openS3Source(config.parquet.dir, config.parquet.s3);
}

/** Runs `work` on a source and always closes it (releasing the file lock). */
export async function withQuerySource<T>(
  config: QuerySourcePaths,
  parquet: boolean,
  work: (source: QuerySource) => Promise<T>,
  options: QuerySourceOptions = {},
): Promise<T> {
  const source = await openQuerySource(config, parquet, options);
  try {
    return await work(source);
  } finally {
    await source.close();
  }
}
