/** The read side: read-only SQL on the warehouse or its Parquet export, reports, checks, status. */
export { openWarehouseSource, type QuerySource } from './warehouse-source.js';
export { READ_WAIT_MS } from '../warehouse/read-connection.js';
export { openParquetSource } from './parquet-source.js';
export { openQuerySource, withQuerySource, type QuerySourceOptions } from './open-source.js';
export { runReadOnly, writeReadOnly, type ReadOutput } from './run-read-only.js';
export { runNamedSql, writeNamedSql } from './run-named.js';
export { namedSqlObjects } from './json-objects.js';
export { runChecks, type CheckResult, type CheckStatus } from './checks.js';
export { listNamedSql, loadNamedSql, type NamedSql, type NamedSqlKind } from './named-sql.js';
export { formatResult, parseFormat, writeResult, OUTPUT_FORMATS, type OutputFormat } from './format.js';
export { formatTable } from './format-table.js';
export { jsonRows } from './format-json.js';
export { alignedTable, type TableLayout } from '../infra/text-table.js';
export type { QueryResult, ResultColumn } from './query-result.js';
export { checkSqlParams, type SqlParams } from './variables.js';
export { jsonValue, type JsonValue } from './values.js';
export { selectSourceVenues } from './venue-selection.js';
