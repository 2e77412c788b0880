import { DuckDBInstance, type DuckDBConnection } from '@duckdb/node-api';
import { EtlError } from '../errors/index.js';
import { EXPORT_TABLES } from '../export/index.js';
import { parseManifest } from '../export/manifest.js';
import { literal } from '../export/sql-text.js';
import { ObjectStore, parseS3Target, describeKey, type S3SettingsInput } from '../lake/index.js';
import { duckdbS3Secret, type DuckdbS3Secret } from '../lake/duckdb-secret.js';
import { scrubSecrets } from '../log/index.js';
import { duckdbMessage, httpfsUnavailable, parquetMissing } from './errors.js';
import { isManifestName, tableEntries } from './lake-manifests.js';
import { sourceOverViews, viewSql } from './parquet-source.js';
import { DEFAULT_QUERY_MEMORY_LIMIT } from '../config/schema.js';
import type { QuerySource } from './warehouse-source.js';
import type { VenueLabelInput } from '../venue-names/index.js';

/**
 * Loads httpfs from DuckDB's extension folder. Never INSTALL: a query command does not download
 * code at run time on its own; the user installs the extension once (the error says how).
 */
async function loadHttpfs(connection: DuckDBConnection, lake: string, endpoint: string | undefined): Promise<void> {
  await connection.run('SET autoinstall_known_extensions = false');
  try {
    await connection.run('LOAD httpfs');
  } catch (error) {
    const about = (await connection.runAndReadAll('SELECT version() AS version, (SELECT platform FROM pragma_platform()) AS platform')).getRowObjects()[0];
    throw httpfsUnavailable(lake, String(about?.version ?? 'v?'), String(about?.platform ?? '?'), error, endpoint);
  }
}

/** A temporary (in-memory, never persisted) S3 secret for this lake only; its text is never printed. */
async function createSecret(connection: DuckDBConnection, secret: DuckdbS3Secret): Promise<void> {
  const options = [
    'TYPE s3',
    `KEY_ID ${literal(secret.keyId)}`,
    `SECRET ${literal(secret.secret)}`,
    ...(secret.sessionToken === undefined ? [] : [`SESSION_TOKEN ${literal(secret.sessionToken)}`]),
    `REGION ${literal(secret.region)}`,
    ...(secret.endpoint === undefined ? [] : [`ENDPOINT ${literal(secret.endpoint)}`]),
    `URL_STYLE ${literal(secret.urlStyle)}`,
    `USE_SSL ${secret.useSsl ? 'true' : 'false'}`,
    `SCOPE ${literal(secret.scope)}`,
  ];
  try {
    await connection.run(`CREATE TEMPORARY SECRET venue_etl_lake (${options.join(', ')})`);
  } catch (error) {
    // No cause: DuckDB's message could quote the statement, and with it the key.
    throw new EtlError('VENUE_LAKE_REQUEST', `DuckDB refused the S3 secret for ${secret.scope}: ${scrubSecrets(duckdbMessage(error).split('\n')[0] ?? '')}`, {
      hint: 'Check parquet.s3 (endpoint, region, forcePathStyle) and the AWS credentials of this command.',
    });
  }
}

/**
 * Views over an `s3://bucket/prefix` lake, read by DuckDB's httpfs with the credentials export
 * uses; every writer's manifest is read through the object store, every writer's files by glob.
 * (This path needs httpfs, which the test machine cannot load: only its refusal is tested there.)
 */
export async function openS3Source(
  dir: string,
  settings: S3SettingsInput | undefined,
  memoryLimit: string = DEFAULT_QUERY_MEMORY_LIMIT,
  labels?: VenueLabelInput,
): Promise<QuerySource> {
  const parsed = parseS3Target(dir);
  if ('problem' in parsed) throw new EtlError('VENUE_LAKE_TARGET', `parquet.dir ${parsed.problem}`, { hint: 'Write parquet.dir as s3://bucket/prefix.' });
  const target = parsed.target;
  const lake = describeKey(target);
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  let statements: string[];
  let files: string[];
  let secret: DuckdbS3Secret;
  try {
    // First, before any request: a machine without httpfs learns it at once, offline or not.
    await loadHttpfs(connection, lake, settings?.endpoint);
    const store = new ObjectStore({ target, ...(settings === undefined ? {} : { settings }) });
    try {
      const objects = await store.list('');
      const manifests = [];
      for (const { key } of objects.filter((o) => isManifestName(o.key))) {
        manifests.push(parseManifest((await store.get(key))?.toString('utf8')));
      }
      const entries = tableEntries(manifests);
      files = objects
        .filter((o) => o.key.endsWith('.parquet'))
        .map((o) => o.key)
        .sort()
        .map((key) => `${lake}/${key}`);
      statements = EXPORT_TABLES.flatMap((table) => {
        const sql = viewSql(
          table,
          files.filter((url) => url.startsWith(`${lake}/${table.name}/`)),
          entries[table.name],
        );
        return sql ? [sql] : [];
      });
    } finally {
      store.close();
    }
    if (statements.length === 0) throw parquetMissing(lake);
    secret = await duckdbS3Secret(target, settings);
  } catch (error) {
    connection.closeSync();
    instance.closeSync();
    throw error;
  }
  // The sealed instance may open exactly these objects: COPY TO, ATTACH, INSTALL, local files,
  // other buckets and prefixes are refused (checked without httpfs in test/readside/lake-s3-read.test.ts).
  return sourceOverViews(instance, connection, statements, {
    prepare: (c) => createSecret(c, secret),
    files,
    memoryLimit,
    ...(labels ? { labels } : {}),
  });
}
