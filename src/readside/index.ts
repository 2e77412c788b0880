/** The read side: read-only SQL on the warehouse or its Parquet export, reports, checks, status. */
export { openWarehouseSource, READ_WAIT_MS, type QuerySource } from './warehouse-source.js';
export { openParquetSource } from './parquet-source.js';
export { openQuerySource, withQuerySource, type QuerySourceOptions } from './open-source.js';
export { runReadOnly } from './run-read-only.js';
export { runNamedSql } from './run-named.js';
export { runChecks, type CheckResult, type CheckStatus } from './checks.js';
export { listNamedSql, loadNamedSql, type NamedSql } from './named-sql.js';
export { formatResult, parseFormat, OUTPUT_FORMATS, type OutputFormat } from './format.js';
export { alignedTable, formatTable } from './format-table.js';
export type { QueryResult, ResultColumn } from './query-result.js';
export { checkSqlParams, type SqlParams } from './variables.js';
export { jsonValue, type JsonValue } from './values.js';
