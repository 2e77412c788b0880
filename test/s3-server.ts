/**
 * The real S3-compatible server the object-store tests run against: OpenStack Swift with its
 * s3api middleware, started by `scripts/s3-server start` (which installs it with apt-get when
 * missing), or the store that S3_ENDPOINT, S3_BUCKET, AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY name. No server is a failure, never a skip.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from './dist.js';

export interface S3Server {
  readonly endpoint: string;
  readonly bucket: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
}

const SCRIPT = join(REPO_ROOT, 'scripts', 's3-server');

/**
 * This checkout's own server (its own state folder, ports and made-up keys), so test runs of
 * other checkouts on the same machine neither share nor stop it.
 */
export const TEST_SERVER_DIR = join(tmpdir(), `venue-etl-s3-test-${createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 12)}`);
/** Present when the tests started the server: the global teardown then stops it. */
export const STARTED_MARK = `${TEST_SERVER_DIR}.started-by-tests`;

/** Long enough for apt-get to install Swift on a fresh machine (about a minute on a fast mirror). */
export const S3_SERVER_START_TIMEOUT_MS = 600_000;

let started: Promise<S3Server> | undefined;

export function s3Server(): Promise<S3Server> {
  started ??= locate();
  return started;
}

async function locate(): Promise<S3Server> {
  const fromEnv = process.env.S3_ENDPOINT;
  if (fromEnv !== undefined && fromEnv !== '') return fromLines(process.env, 'the environment (S3_ENDPOINT is set)');
  const env = { ...process.env, VENUE_ETL_S3_DIR: TEST_SERVER_DIR };
  const running = await promisify(execFile)(SCRIPT, ['env'], { env }).then(
    () => true,
    () => false,
  );
  let stdout: string;
  try {
    ({ stdout } = await promisify(execFile)(SCRIPT, ['start'], { env, timeout: S3_SERVER_START_TIMEOUT_MS }));
  } catch (error) {
    const stderr = typeof error === 'object' && error !== null && 'stderr' in error ? String(error.stderr) : String(error);
    throw new Error(
      `scripts/s3-server start failed, and the object-store tests need a real S3-compatible server:\n${stderr}\n` +
        'Run it as root (it installs swift, swift-proxy, swift-object, swift-container, swift-account and memcached with apt-get), ' +
        'or point S3_ENDPOINT, S3_BUCKET, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY at another S3-compatible store.',
      { cause: error },
    );
  }
  if (!running && !existsSync(STARTED_MARK)) writeFileSync(STARTED_MARK, '');
  const values: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const equals = line.indexOf('=');
    if (equals > 0) values[line.slice(0, equals)] = line.slice(equals + 1);
  }
  return fromLines(values, 'scripts/s3-server start');
}

function fromLines(values: Readonly<Record<string, string | undefined>>, source: string): S3Server {
  const need = (name: string): string => {
    const value = values[name];
    if (value === undefined || value === '')
      throw new Error(`${source} gave no ${name}: the object-store tests need S3_ENDPOINT, S3_BUCKET, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY`);
    return value;
  };
  return {
    endpoint: need('S3_ENDPOINT'),
    bucket: need('S3_BUCKET'),
    accessKeyId: need('AWS_ACCESS_KEY_ID'),
    secretAccessKey: need('AWS_SECRET_ACCESS_KEY'),
  };
}

/** Stops the server when the tests started it (a server that was already running is left alone). */
export async function stopS3ServerIfStarted(): Promise<void> {
  if (!existsSync(STARTED_MARK)) return;
  await promisify(execFile)(SCRIPT, ['stop'], { env: { ...process.env, VENUE_ETL_S3_DIR: TEST_SERVER_DIR } });
  rmSync(STARTED_MARK, { force: true });
}
