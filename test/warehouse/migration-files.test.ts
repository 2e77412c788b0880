import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { knownMigrations } from '../../src/warehouse/migrations.js';
import { sqlDir } from '../../src/warehouse/sql-files.js';

// Migrations written on separate branches can each take the next free number; two files with
// one version would apply in an order nobody chose, and only one would be recorded.
describe('sql/migrations', () => {
  it('gives every migration file its own version number', () => {
    const files = readdirSync(join(sqlDir(), 'migrations')).filter((f) => f.endsWith('.sql'));
    const versions = knownMigrations().map((m) => m.version);
    expect(versions.length).toBe(files.length);
    expect(new Set(versions).size).toBe(versions.length);
  });

  it('numbers them without gaps from 1', () => {
    const versions = knownMigrations().map((m) => m.version);
    expect(versions).toEqual(versions.map((_, i) => i + 1));
  });
});
