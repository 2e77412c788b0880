import type { Config } from '../config/index.js';
import { openParquetSource } from './parquet-source.js';
import { openWarehouseSource, type QuerySource } from './warehouse-source.js';

/** The warehouse file read-only, or with `--parquet` the exported files behind same-named views. */
export function openQuerySource(config: Config, parquet: boolean): Promise<QuerySource> {
  return parquet ? openParquetSource(config.parquet.dir) : openWarehouseSource(config.warehouse.path);
}

/** Runs `work` on a source and always closes it (releasing the file lock). */
export async function withQuerySource<T>(config: Config, parquet: boolean, work: (source: QuerySource) => Promise<T>): Promise<T> {
  const source = await openQuerySource(config, parquet);
  try {
    return await work(source);
  } finally {
    await source.close();
  }
}
