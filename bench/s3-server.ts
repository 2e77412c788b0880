/**
 * The S3-compatible server B12 exports to: the store S3_ENDPOINT, S3_BUCKET, AWS_ACCESS_KEY_ID
 * and AWS_SECRET_ACCESS_KEY name, else Swift with s3api on loopback started by
 * `scripts/s3-server start` (the script the tests' server comes from too), in a state folder of
 * the benchmark's own; stopped again when this run started it.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

export interface BenchS3Server {
  readonly endpoint: string;
  readonly bucket: string;
  readonly accessKeyId: string;
  readonly secretAccessKey: string;
  stop(): Promise<void>;
}

/** bench/ in the sources and dist/bench/ when built: the script is found from either. */
const SCRIPT_CANDIDATES = ['../scripts/s3-server', '../../scripts/s3-server'].map((relative) => fileURLToPath(new URL(relative, import.meta.url)));
const STATE = join(tmpdir(), 'venue-etl-s3-bench');
/** apt-get may install Swift first on a fresh machine. */
const START_TIMEOUT_MS = 600_000;

export async function benchS3Server(): Promise<BenchS3Server> {
  if (process.env.S3_ENDPOINT) return { ...fromLines(process.env), stop: () => Promise.resolve() };
  const script = SCRIPT_CANDIDATES.find((path) => existsSync(path));
  if (script === undefined) throw new Error('scripts/s3-server is missing');
  const env = { ...process.env, VENUE_ETL_S3_DIR: STATE };
  const run = promisify(execFile);
  const running = await run(script, ['env'], { env }).then(
    () => true,
    () => false,
  );
  let stdout: string;
  try {
    ({ stdout } = await run(script, ['start'], { env, timeout: START_TIMEOUT_MS }));
  } catch (error) {
    const stderr = typeof error === 'object' && error !== null && 'stderr' in error ? String(error.stderr).trim() : String(error);
    throw new Error(`scripts/s3-server start failed: ${stderr.split('\n').pop() ?? stderr}`, { cause: error });
  }
  const values: Record<string, string> = {};
  for (const line of stdout.split('\n')) {
    const equals = line.indexOf('=');
    if (equals > 0) values[line.slice(0, equals)] = line.slice(equals + 1);
  }
  return {
    ...fromLines(values),
    stop: async () => {
      if (!running) await run(script, ['stop'], { env });
    },
  };
}

function fromLines(values: Readonly<Record<string, string | undefined>>): Omit<BenchS3Server, 'stop'> {
  const need = (name: string): string => {
    const value = values[name];
    if (!value) throw new Error(`no ${name} (S3_ENDPOINT, S3_BUCKET, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY name the store)`);
    return value;
  };
  return { endpoint: need('S3_ENDPOINT'), bucket: need('S3_BUCKET'), accessKeyId: need('AWS_ACCESS_KEY_ID'), secretAccessKey: need('AWS_SECRET_ACCESS_KEY') };
}
