import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Warehouse } from '../../src/warehouse/index.js';
import { sql, sqlDir } from '../../src/warehouse/sql-files.js';
import { repoRoot, useFreshWarehouse } from './helpers.js';

let warehouse: Warehouse;
useFreshWarehouse((w) => (warehouse = w));

function filesUnder(dir: string, ending: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith(ending))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** Every `sql('<path>')` the source code loads. */
function referencedSqlFiles(): Set<string> {
  const names = new Set<string>();
  for (const file of filesUnder(join(repoRoot, 'src'), '.ts')) {
    for (const match of readFileSync(file, 'utf8').matchAll(/'((?:warehouse|export|demo|views|checks|reports)\/[a-z0-9-]+\.sql)'/g)) {
      names.add(match[1]);
    }
  }
  return names;
}

const warehouseFiles = (): string[] =>
  filesUnder(join(sqlDir(), 'warehouse'), '.sql')
    .map((file) => relative(sqlDir(), file))
    .sort();

describe('sql/ files', () => {
  it('every statement the code loads is a file under sql/, and every sql/warehouse file is loaded by the code', () => {
    const referenced = referencedSqlFiles();
    expect(referenced.size).toBeGreaterThan(50);
    for (const name of referenced) expect(() => sql(name), name).not.toThrow();
    expect(warehouseFiles().filter((name) => !referenced.has(name))).toEqual([]);
  });

  it('every sql/warehouse statement runs (or, with $n parameters, prepares) on a migrated warehouse, as in the DuckDB CLI', async () => {
    // Staging tables first: the other statements read them.
    const order = (name: string) => (name.endsWith('-staging.sql') ? 0 : name.endsWith('-changed-windows.sql') ? 1 : 2);
    const names = warehouseFiles().sort((a, b) => order(a) - order(b) || (a < b ? -1 : 1));
    const failures: string[] = [];
    await warehouse.transaction(async (session) => {
      for (const name of names) {
        const text = sql(name);
        try {
          if (/\$\d/.test(text)) {
            await session.run(`PREPARE statement_check AS ${text}`);
            await session.run('DEALLOCATE statement_check');
          } else {
            await session.run(text);
          }
        } catch (error) {
          failures.push(`${name}: ${error instanceof Error ? error.message : String(error)}`);
        }
      }
    });
    expect(failures).toEqual([]);
  });
});
