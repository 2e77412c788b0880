import {
  DuckDBArrayValue,
  DuckDBBlobValue,
  DuckDBDateValue,
  DuckDBDecimalValue,
  DuckDBListValue,
  DuckDBMapValue,
  DuckDBStructValue,
  DuckDBTimestampTZValue,
  DuckDBTimestampValue,
  DuckDBTimeValue,
  DuckDBUnionValue,
  type DuckDBType,
  type DuckDBValue,
} from '@duckdb/node-api';
import { daysToDate } from '../calendar/index.js';

/** What JSON can carry: the `--format json` value of a cell. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** `2026-01-02T03:04:05.123456Z`: microseconds kept, trailing zeros of the fraction dropped. */
function isoTimestamp(micros: bigint, utc: boolean): string {
  const millis = floorDiv(micros, 1000n);
  const base = new Date(Number(millis)).toISOString().slice(0, 19);
  const fraction = ((micros % 1_000_000n) + 1_000_000n) % 1_000_000n;
  const digits = fraction === 0n ? '' : `.${fraction.toString().padStart(6, '0').replace(/0+$/, '')}`;
  return `${base}${digits}${utc ? 'Z' : ''}`;
}

export function isoDate(days: number): string {
  return daysToDate(days);
}

function floorDiv(a: bigint, b: bigint): bigint {
  const q = a / b;
  return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}

function isJsonType(type: DuckDBType | undefined): boolean {
  return type?.alias === 'JSON';
}

/** Element types of nested values, so JSON columns inside lists and structs are still parsed. */
function childType(type: DuckDBType | undefined, key?: string): DuckDBType | undefined {
  if (type === undefined) return undefined;
  if ('valueType' in type && !('keyType' in type)) return type.valueType as DuckDBType;
  if ('entryTypes' in type && key !== undefined && 'typeForEntry' in type) {
    try {
      return (type as { typeForEntry(name: string): DuckDBType }).typeForEntry(key);
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/**
 * A value as JSON: integers beyond 2^53 become strings (a JSON number would silently lose
 * digits), dates and timestamps ISO 8601 in UTC, JSON columns embedded as JSON.
 */
export function jsonValue(value: DuckDBValue, type?: DuckDBType): JsonValue {
  if (value === null || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (typeof value === 'bigint') return safeInteger(value);
  if (typeof value === 'string') {
    if (!isJsonType(type)) return value;
    try {
      return JSON.parse(value) as JsonValue;
    } catch {
      return value;
    }
  }
  if (value instanceof DuckDBTimestampTZValue) return value.isFinite ? isoTimestamp(value.micros, true) : value.toString();
  if (value instanceof DuckDBTimestampValue) return value.isFinite ? isoTimestamp(value.micros, false) : value.toString();
  if (value instanceof DuckDBDateValue) return value.isFinite ? isoDate(value.days) : value.toString();
  if (value instanceof DuckDBTimeValue) return isoTimestamp(value.micros, false).slice(11);
  if (value instanceof DuckDBDecimalValue) {
    const magnitude = value.value < 0n ? -value.value : value.value;
    return magnitude < 2n ** 53n ? value.toDouble() : value.toString();
  }
  if (value instanceof DuckDBListValue || value instanceof DuckDBArrayValue) {
    const element = childType(type);
    return value.items.map((item) => jsonValue(item, element));
  }
  if (value instanceof DuckDBStructValue) {
    return Object.fromEntries(Object.entries(value.entries).map(([key, item]) => [key, jsonValue(item, childType(type, key))]));
  }
  if (value instanceof DuckDBMapValue) {
    const valueType = type !== undefined && 'keyType' in type ? (type as { valueType: DuckDBType }).valueType : undefined;
    const keysAreText = value.entries.every((entry) => typeof entry.key === 'string');
    if (keysAreText) return Object.fromEntries(value.entries.map((entry) => [entry.key as string, jsonValue(entry.value, valueType)]));
    return value.entries.map((entry) => ({ key: jsonValue(entry.key), value: jsonValue(entry.value, valueType) }));
  }
  if (value instanceof DuckDBUnionValue) return jsonValue(value.value);
  if (value instanceof DuckDBBlobValue) return Buffer.from(value.bytes).toString('base64');
  return value.toString();
}

function safeInteger(value: bigint): number | string {
  return value >= BigInt(Number.MIN_SAFE_INTEGER) && value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value.toString();
}

/** A value as one line of text (table and CSV cells); NULL is `null` and left to the formatter. */
export function textValue(value: DuckDBValue, type?: DuckDBType): string | null {
  if (value === null) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof DuckDBDecimalValue) return value.toString();
  if (value instanceof DuckDBBlobValue) return value.toString();
  const json = jsonValue(value, type);
  return typeof json === 'string' ? json : JSON.stringify(json);
}

/** Numbers are right-aligned in the text table. */
export function isNumericType(type: DuckDBType): boolean {
  return /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL)/.test(type.toString());
}
