import { DuckDBTypeId, type DuckDBType } from '@duckdb/node-api';

/** The text formats DuckDB can write itself (the table is laid out by JavaScript). */
export type TextFormat = 'csv' | 'json';

export interface TextColumn {
  readonly name: string;
  readonly type: DuckDBType;
}

const SMALL_INTEGERS = new Set([
  DuckDBTypeId.BOOLEAN,
  DuckDBTypeId.TINYINT,
  DuckDBTypeId.SMALLINT,
  DuckDBTypeId.INTEGER,
  DuckDBTypeId.UTINYINT,
  DuckDBTypeId.USMALLINT,
  DuckDBTypeId.UINTEGER,
]);
const LARGE_INTEGERS = new Set([DuckDBTypeId.BIGINT, DuckDBTypeId.UBIGINT, DuckDBTypeId.HUGEINT, DuckDBTypeId.UHUGEINT]);

const quoted = (text: string): string => `'"' || ${text} || '"'`;

/** The struct of a row's values, for JavaScript to write the rows DuckDB does not. */
export function rowStruct(columns: readonly TextColumn[]): string {
  return `struct_pack(${columns.map((c) => `${identifier(c.name)} := r.${identifier(c.name)}`).join(', ')})`;
}

/**
 * The SQL of one value's text (a cell of CSV, a value of JSON) for the column's type, over the
 * macros of sql/readside/text-macros.sql; undefined for a type DuckDB does not write here exactly
 * as src/readside/values.ts does (decimals, lists, structs, JSON, blobs…): such a result is
 * written by JavaScript. NULL stays NULL.
 */
export function valueText(ref: string, type: DuckDBType, format: TextFormat): string | undefined {
  const id = type.typeId;
  if (type.alias !== undefined) return undefined;
  if (SMALL_INTEGERS.has(id)) return `${ref}::VARCHAR`;
  if (LARGE_INTEGERS.has(id)) return format === 'csv' ? `${ref}::VARCHAR` : `venue_etl_integer_json(${ref})`;
  if (id === DuckDBTypeId.DOUBLE || id === DuckDBTypeId.FLOAT) {
    return format === 'csv' ? `venue_etl_number_text(${ref}::DOUBLE)` : `venue_etl_number_json(${ref}::DOUBLE)`;
  }
  if (id === DuckDBTypeId.VARCHAR) return format === 'csv' ? `venue_etl_csv_field(${ref})` : `venue_etl_json_string(${ref})`;
  if (id === DuckDBTypeId.UUID) return format === 'csv' ? `${ref}::VARCHAR` : quoted(`${ref}::VARCHAR`);
  const stamp = timeText(ref, id);
  if (stamp === undefined) return undefined;
  return format === 'csv' ? stamp : quoted(stamp);
}

function timeText(ref: string, id: DuckDBTypeId): string | undefined {
  if (id === DuckDBTypeId.DATE) return `venue_etl_date_text(${ref})`;
  if (id === DuckDBTypeId.TIMESTAMP) return `venue_etl_timestamp_text(${ref})`;
  if (id === DuckDBTypeId.TIMESTAMP_TZ) return `(venue_etl_timestamp_text(timezone('UTC', ${ref})) || 'Z')`;
  return undefined;
}

/**
 * Whether DuckDB writes this value as JavaScript does: days and instants of the years 1000-9999
 * only (JavaScript writes others its own way: `+010000-01`, `infinity`); undefined when every
 * value of the type is.
 */
function valueWritten(ref: string, id: DuckDBTypeId): string | undefined {
  const inYears = (day: string) => `(${ref} IS NULL OR (isfinite(${ref}) AND year(${day}) BETWEEN 1000 AND 9999))`;
  if (id === DuckDBTypeId.DATE || id === DuckDBTypeId.TIMESTAMP) return inYears(ref);
  if (id === DuckDBTypeId.TIMESTAMP_TZ) return inYears(`timezone('UTC', ${ref})`);
  return undefined;
}

/**
 * The SQL of whether DuckDB's line of a row is the one JavaScript writes: true but for a row
 * holding a day or instant outside the years 1000-9999, which JavaScript then writes.
 */
export function lineWritten(columns: readonly TextColumn[]): string {
  const checks = columns.map((c) => valueWritten(`r.${identifier(c.name)}`, c.type.typeId)).filter((check) => check !== undefined);
  return checks.length === 0 ? 'true' : checks.join(' AND ');
}

/** `"name"` as a SQL identifier. */
function identifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

/**
 * A JSON object's keys keep the columns' order only when none looks like an array index (a
 * JavaScript object puts those first) and none is `__proto__`; names must be unique (the
 * JavaScript path renames duplicates).
 */
function namesKeepTheirOrder(columns: readonly TextColumn[]): boolean {
  const names = new Set(columns.map((c) => c.name));
  return names.size === columns.length && columns.every((c) => !/^(0|[1-9]\d*)$/.test(c.name) && c.name !== '__proto__');
}

/**
 * The SQL of one output line per row of `r` (without its line end or separator), or undefined
 * when a column's values cannot be written by DuckDB: a CSV record, or a JSON object keyed by
 * column name, as src/readside/format-csv.ts and format-json.ts write them.
 */
export function lineText(columns: readonly TextColumn[], format: TextFormat): string | undefined {
  if (columns.length === 0 || !namesKeepTheirOrder(columns)) return undefined;
  const cells: string[] = [];
  for (const column of columns) {
    const text = valueText(`r.${identifier(column.name)}`, column.type, format);
    if (text === undefined) return undefined;
    cells.push(format === 'csv' ? `coalesce(${text}, '')` : `${literal(`${JSON.stringify(column.name)}:`)} || coalesce(${text}, 'null')`);
  }
  return format === 'csv' ? cells.join(` || ',' || `) : `'{' || ${cells.join(` || ',' || `)} || '}'`;
}
