import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Logger } from '../log/index.js';
import { processAlive } from '../infra/pid-lock.js';
import { describeKey, ObjectStore, type S3SettingsInput, type S3Target } from '../lake/index.js';
import { acquireLease } from './lease.js';
import { manifestFileName } from './manifest.js';
import { parsePartitionKey } from './fingerprint.js';
import { dataFileName, isDataFileName } from './tables.js';
import { pauseAfterUpload } from './test-hooks.js';
import type { ExportStore, StoredFile } from './store.js';

/** Local folders the staged files of one export live in: `<tmp>/venue-etl-export-<pid>-<random>`. */
const STAGING_PREFIX = 'venue-etl-export-';

/**
 * The export's store on an object store (`parquet.dir` = `s3://bucket/prefix`): objects
 * `<prefix>/<table>/<key>` and the writer's manifest at `<prefix>/<manifest>`.
 *
 * - A file is staged in a local temp folder (DuckDB's COPY writes a path), uploaded whole (one
 *   PUT, or a multipart upload that is invisible until completed) and deleted: a reader sees the
 *   old object or the new one. Its version is the ETag.
 * - The manifest is one PUT, atomic per object.
 * - An object store has no locks. Assumed: one writer id is one process at a time (each worker
 *   has a writer name or shard of its own; a second process with the same id is a setup
 *   error). Still guarded by a lease object (lease.ts) so that a second run started by hand or
 *   an overlapping schedule is refused instead of racing on the manifest.
 * - Interrupted (network error, kill -9): the marks are kept until the manifest is written, and
 *   objects uploaded since the last manifest are listed (this writer's only) and rewritten by
 *   the next run, whose planning treats any file the manifest does not name as changed.
 */
export class ObjectExportStore implements ExportStore {
  readonly location: string;
  readonly manifestLocation: string;
  private readonly manifestKey: string;
  private staging: string | undefined;
  private staged = 0;

  private constructor(
    private readonly objects: ObjectStore,
    readonly writer: string,
  ) {
    this.location = describeKey(objects.target);
    this.manifestKey = manifestFileName(writer);
    this.manifestLocation = describeKey(objects.target, this.manifestKey);
  }

  static open(target: S3Target, settings: S3SettingsInput | undefined, writer = '', signal?: AbortSignal): ObjectExportStore {
    return new ObjectExportStore(new ObjectStore({ target, ...(settings ? { settings } : {}), ...(signal ? { signal } : {}) }), writer);
  }

  async lock(logger: Logger | undefined): Promise<() => Promise<void>> {
    let releaseLease: () => Promise<void>;
    try {
      releaseLease = await acquireLease(this.objects, this.writer, logger);
    } catch (error) {
      // Refused (another export holds the lease) or unreachable: nothing more goes out.
      this.objects.close();
      throw error;
    }
    removeStaleStaging(logger);
    const staging = mkdtempSync(join(tmpdir(), `${STAGING_PREFIX}${process.pid}-`));
    this.staging = staging;
    return async () => {
      try {
        await releaseLease();
      } finally {
        rmSync(staging, { recursive: true, force: true });
        this.staging = undefined;
        this.objects.close();
      }
    };
  }

  async readManifest(): Promise<string | undefined> {
    return (await this.objects.get(this.manifestKey))?.toString('utf8');
  }

  async writeManifest(text: string): Promise<void> {
    await this.objects.putBytes(this.manifestKey, Buffer.from(text, 'utf8'));
  }

  async listTable(table: string, partitioned: boolean, logger: Logger | undefined): Promise<ReadonlyMap<string, StoredFile>> {
    const fileName = dataFileName(this.writer);
    const files = new Map<string, StoredFile>();
    for (const object of await this.objects.list(`${table}/`)) {
      const key = object.key.slice(table.length + 1);
      const ours = partitioned ? parsePartitionKey(key, fileName) !== undefined : key === fileName;
      if (ours) files.set(key, { bytes: object.size, version: object.etag });
      else if (key.endsWith('.parquet') && !(partitioned ? parsePartitionKey(key) !== undefined : isDataFileName(key))) {
        // A shared bucket: objects of other programs are left alone, but a glob would read them.
        logger?.warn({ object: describeKey(this.objects.target, object.key) }, 'a Parquet object venue-etl did not write: readers of the lake would mix it in');
      }
    }
    return files;
  }

  stagingFile(table: string, _key: string): Promise<string> {
    if (this.staging === undefined) throw new Error('the export store is not locked');
    this.staged++;
    return Promise.resolve(join(this.staging, `${table}-${this.staged}.parquet`));
  }

  async put(table: string, key: string, staged: string): Promise<StoredFile> {
    try {
      const bytes = statSync(staged).size;
      const { etag } = await this.objects.putFile(staged, `${table}/${key}`);
      await pauseAfterUpload();
      return { bytes, version: etag };
    } finally {
      rmSync(staged, { force: true });
    }
  }

  async delete(table: string, key: string): Promise<void> {
    await this.objects.delete([`${table}/${key}`]);
  }

  /** The bucket cannot be swapped under a running export the way a folder can. */
  assertIntact(): void {}
}

/** Staging folders of exports that were killed (their pid no longer runs on this machine). */
function removeStaleStaging(logger: Logger | undefined): void {
  const base = tmpdir();
  let names: string[];
  try {
    names = readdirSync(base);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(STAGING_PREFIX)) continue;
    const pid = Number(name.slice(STAGING_PREFIX.length).split('-')[0]);
    if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid || processAlive(pid)) continue;
    rmSync(join(base, name), { recursive: true, force: true });
    logger?.debug({ folder: join(base, name) }, 'removed the staging folder of an interrupted export');
  }
}
