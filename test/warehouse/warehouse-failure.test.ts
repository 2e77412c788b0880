/**
 * The failures after which a warehouse takes no more writes: how DuckDB's words are read
 * (the messages below are what DuckDB 1.5 said when this project flipped bytes of a real
 * warehouse, truncated it, corrupted its WAL and filled the disk under it), and a real
 * invalidation: a checkpoint that finds the disk full closes the database for every handle
 * of the process, and each says so with VENUE_WAREHOUSE_DISK_FULL.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EtlError } from '../../src/errors/index.js';
import { failureKind, openWarehouse, warehouseFailure, type Warehouse } from '../../src/warehouse/index.js';
import { mountSmallDisk, type SmallDisk } from '../receiver/small-disk.js';

const SAID = {
  checksum:
    'IO Error: Corrupt database file: computed checksum 10196731912846952193 does not match stored checksum 14083263143440664321 in block at location 1585152',
  header: 'IO Error: The file "/data/warehouse.duckdb" exists, but it is not a valid DuckDB database file!',
  truncated: 'IO Error: Could not read enough bytes from file "/data/warehouse.duckdb": attempted to read 262144 bytes from location 6041600',
  wal: 'IO Error: Failure while replaying WAL file "/data/warehouse.duckdb.wal": Corrupt WAL file: entry at byte position 169 computed checksum 14952662915664319552 does not match stored checksum 6882212383416390720',
  walFull: 'TransactionContext Error: Failed to commit: Could not write file "/data/warehouse.duckdb.wal": No space left on device',
  tempFull: 'Could not write file "/data/warehouse.duckdb.tmp/duckdb_temp_storage_S32K-0.tmp": No space left on device',
  invalidatedFull:
    'FATAL Error: Failed: database has been invalidated because of a previous fatal error. The database must be restarted prior to being used again.\nOriginal error: "Failed to create checkpoint because of error: Could not write file "/data/warehouse.duckdb": No space left on device"',
  checkpointMemory:
    'FATAL Error: Failed to create checkpoint because of error: Out of Memory Error: could not allocate block of size 256.0 KiB (64.0 MiB/64.0 MiB used)',
  ioOther: 'IO Error: Could not write file "/data/warehouse.duckdb": Input/output error',
} as const;

describe('reading what DuckDB says', () => {
  it('tells a corrupt file, a full disk and a fatal error apart, through the errors that wrap them', () => {
    const kind = (message: string, path?: string): string | undefined => failureKind(new Error(message), path);
    expect(kind(SAID.checksum)).toBe('corrupt');
    // warehouse.path naming another file says the same: VENUE_WAREHOUSE_OPEN, with both in its hint.
    expect(kind(SAID.header)).toBe('fatal');
    expect(kind(SAID.wal)).toBe('corrupt');
    // A file read short is the warehouse's corruption only when it is the warehouse (or its WAL).
    expect(kind(SAID.truncated, '/data/warehouse.duckdb')).toBe('corrupt');
    expect(kind(SAID.truncated, '/data/other.duckdb')).toBe('fatal');
    expect(kind(SAID.walFull)).toBe('disk-full');
    expect(kind(SAID.tempFull)).toBe('disk-full');
    expect(kind(SAID.invalidatedFull)).toBe('disk-full');
    expect(kind(SAID.checkpointMemory)).toBe('fatal');
    expect(kind(SAID.ioOther)).toBe('fatal');
    expect(failureKind(Object.assign(new Error('write failed'), { code: 'ENOSPC' }))).toBe('disk-full');
    expect(kind('Constraint Error: Duplicate key "id: 1" violates primary key constraint')).toBeUndefined();
    expect(kind('Catalog Error: Table with name nope does not exist!')).toBeUndefined();
    const wrapped = new EtlError('VENUE_WAREHOUSE_WRITE', 'committing 1 slice(s) failed', { cause: new Error(SAID.checksum) });
    expect(failureKind(wrapped)).toBe('corrupt');
  });

  it('says each in DuckDB’s own words on one line, with what to do', () => {
    const full = warehouseFailure('data/warehouse.duckdb', new Error(SAID.invalidatedFull));
    expect(full?.code).toBe('VENUE_WAREHOUSE_DISK_FULL');
    expect(full?.message).toBe(
      'the disk holding the warehouse data/warehouse.duckdb is full: Failed to create checkpoint because of error: Could not write file "/data/warehouse.duckdb": No space left on device',
    );
    expect(full?.hint).toMatch(/^free space there \(df -h .*data\) or move warehouse\.path to a larger disk/);
    const corrupt = warehouseFailure('data/warehouse.duckdb', new Error(SAID.checksum));
    expect(corrupt?.code).toBe('VENUE_WAREHOUSE_CORRUPT');
    expect(corrupt?.message).toMatch(/^the warehouse data\/warehouse\.duckdb is corrupt: Corrupt database file: computed checksum/);
    expect(corrupt?.hint).toMatch(/restore the latest backup, or rebuild it: `venue-etl sync`/);
    expect(warehouseFailure('data/warehouse.duckdb', new Error(SAID.checkpointMemory))?.code).toBe('VENUE_WAREHOUSE_FATAL');
    expect(warehouseFailure('data/warehouse.duckdb', new Error('Constraint Error: x'))).toBeUndefined();
  });
});

describe('a checkpoint that finds the disk full', () => {
  let disk: SmallDisk;
  let first: Warehouse;
  let second: Warehouse;
  let path: string;
  beforeAll(async () => {
    disk = mountSmallDisk(64 * 1024 * 1024);
    path = join(disk.dir, 'warehouse.duckdb');
    first = await openWarehouse(path);
    second = await openWarehouse(path);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    disk?.unmount();
  });

  it('invalidates the database: every handle refuses to write with VENUE_WAREHOUSE_DISK_FULL, and what was committed is kept', async () => {
    await first.transaction((session) => session.run('CREATE TABLE scratch (n BIGINT, s VARCHAR)'));
    // About 15 MB of WAL, which the checkpoint must write into the file (about 7 MB) once the disk is full.
    for (let batch = 0; batch < 10; batch++) {
      await first.transaction((session) =>
        session.run(
          `INSERT INTO scratch SELECT range, md5(range::VARCHAR) || md5((range + ${batch})::VARCHAR) FROM range(${batch * 20_000}, ${(batch + 1) * 20_000})`,
        ),
      );
    }
    disk.fill(1024 * 1024);
    const checkpoint = await first.query('CHECKPOINT').catch((error: unknown) => error);
    expect(checkpoint).toMatchObject({ code: 'VENUE_WAREHOUSE_DISK_FULL', message: expect.stringMatching(/No space left on device/) });
    expect(first.failure?.code).toBe('VENUE_WAREHOUSE_DISK_FULL');
    // This handle writes nothing more; the other meets DuckDB's "database has been invalidated".
    await expect(first.transaction((session) => session.run('INSERT INTO scratch VALUES (-1, NULL)'))).rejects.toMatchObject({
      code: 'VENUE_WAREHOUSE_DISK_FULL',
    });
    await expect(second.transaction((session) => session.run('INSERT INTO scratch VALUES (-2, NULL)'))).rejects.toMatchObject({
      code: 'VENUE_WAREHOUSE_DISK_FULL',
      hint: expect.stringMatching(/^free space there/),
    });
    expect(second.failure?.code).toBe('VENUE_WAREHOUSE_DISK_FULL');
    await first.close();
    await second.close();

    disk.free();
    const reopened = await openWarehouse(path);
    try {
      expect(await reopened.query('SELECT count(*)::INTEGER AS n FROM scratch')).toEqual([{ n: 200_000 }]);
    } finally {
      await reopened.close();
    }
  });
});
