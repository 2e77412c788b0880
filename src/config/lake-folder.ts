import { dirname, parse, resolve, sep } from 'node:path';
import { isS3Target } from '../lake/target.js';
import type { ConfigProblem } from './interpolate.js';
import type { Config } from './schema.js';

/**
 * A local `parquet.dir` that is `/` or holds the warehouse's folder: `export` would write its
 * table folders beside (or around) the warehouse file and journal, and `sql --parquet` would be
 * handed every file under it. With "data" (the warehouse's own folder) a COPY through the lake
 * once turned warehouse.duckdb into a 4-byte file; refused before any command runs.
 */
export function lakeFolderProblem(config: Pick<Config, 'warehouse' | 'parquet'>): ConfigProblem | undefined {
  if (isS3Target(config.parquet.dir)) return undefined;
  const lake = resolve(config.parquet.dir);
  const home = dirname(resolve(config.warehouse.path));
  if (lake === parse(lake).root) {
    return { path: 'parquet.dir', message: `is the root of the file system (${lake}): the export needs a folder of its own` };
  }
  if (home === lake || home.startsWith(`${lake}${sep}`)) {
    const which = home === lake ? 'is the folder of the warehouse' : 'contains the folder of the warehouse';
    return { path: 'parquet.dir', message: `${which} (${home}): the export needs a folder of its own, apart from warehouse.path` };
  }
  return undefined;
}

export const LAKE_FOLDER_HINT = 'Set parquet.dir to a folder of its own, e.g. "data/parquet" beside "data/warehouse.duckdb" (the defaults).';
