/**
 * Where the workers of an e2e case write their lake, as a parameter: a local folder, or an
 * `s3://` prefix on the test object store. The union query always runs on local files (DuckDB's
 * httpfs cannot be loaded offline): an s3:// lake is downloaded object by object first.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ObjectStore } from '../../src/lake/index.js';
import { s3Server } from '../s3-server.js';

export interface LakeLocation {
  readonly name: string;
  /** The config's `parquet` section of one worker (`parquet.writer` = `writer`). */
  parquet(writer: string): Record<string, unknown>;
  /** What the worker's environment needs to reach the lake (the object store's keys). */
  readonly env: Readonly<Record<string, string>>;
  /** A local folder holding the lake's files as they are now. */
  localCopy(): Promise<string>;
  close(): Promise<void>;
}

/** A lake in a local folder (created by the first export). */
export function localLake(dir: string): LakeLocation {
  return {
    name: 'a local folder',
    parquet: (writer) => ({ dir, writer }),
    env: {},
    localCopy: () => Promise.resolve(dir),
    close: () => Promise.resolve(),
  };
}

/** A lake under a fresh prefix of the test object store (scripts/s3-server). */
export async function s3Lake(prefix: string): Promise<LakeLocation> {
  const server = await s3Server();
  const settings = { endpoint: server.endpoint, forcePathStyle: true, accessKeyId: server.accessKeyId, secretAccessKey: server.secretAccessKey };
  const target = { bucket: server.bucket, prefix };
  const copies: string[] = [];
  return {
    name: `s3://${server.bucket}/${prefix}`,
    parquet: (writer) => ({ dir: `s3://${server.bucket}/${prefix}`, writer, s3: { endpoint: server.endpoint, forcePathStyle: true } }),
    env: { AWS_ACCESS_KEY_ID: server.accessKeyId, AWS_SECRET_ACCESS_KEY: server.secretAccessKey },
    async localCopy() {
      const copy = mkdtempSync(join(tmpdir(), 'venue-etl-lake-copy-'));
      copies.push(copy);
      const store = new ObjectStore({ target, settings });
      try {
        for (const { key } of await store.list('')) {
          const bytes = await store.get(key);
          if (bytes === undefined) continue;
          mkdirSync(dirname(join(copy, key)), { recursive: true });
          writeFileSync(join(copy, key), bytes);
        }
      } finally {
        store.close();
      }
      return copy;
    },
    async close() {
      const store = new ObjectStore({ target, settings });
      try {
        await store.delete((await store.list('')).map((o) => o.key));
      } finally {
        store.close();
      }
      for (const copy of copies) rmSync(copy, { recursive: true, force: true });
    },
  };
}
