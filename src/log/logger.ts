import { Writable } from 'node:stream';
import pino, { type Logger, type DestinationStream } from 'pino';
import { scrubSecrets } from './secrets.js';

export type { Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

// Key names that hold secrets, in the casings they come in (pino's redact is case-sensitive).
const REDACT_PATHS = [
  'token',
  'authorization',
  'Authorization',
  'password',
  '*.token',
  '*.authorization',
  '*.Authorization',
  '*.password',
  'headers.authorization',
  'headers.Authorization',
  'req.headers.authorization',
  'api.token',
  'receiver.authorization',
  'config.api.token',
  'config.receiver.authorization',
];

export interface LoggerOptions {
  readonly level?: LogLevel;
  /** Where lines go; stderr by default (stdout is for human-readable command output). */
  readonly destination?: NodeJS.WritableStream;
  /** Readable lines instead of JSON; defaults to "destination is a terminal". */
  readonly pretty?: boolean;
}

export function createLogger(options: LoggerOptions = {}): Logger {
  const destination = options.destination ?? process.stderr;
  const pretty = options.pretty ?? Boolean((destination as { isTTY?: boolean }).isTTY);
  const stream: DestinationStream = pretty ? new ReadableLines(destination) : (destination as DestinationStream);
  return pino(
    {
      level: options.level ?? 'info',
      base: null, // no pid or hostname on each line
      redact: { paths: REDACT_PATHS, censor: '***' },
      hooks: { streamWrite: scrubSecrets },
    },
    stream,
  );
}

const LEVEL_NAMES: Record<number, string> = {
  10: 'TRACE',
  20: 'DEBUG',
  30: 'INFO',
  40: 'WARN',
  50: 'ERROR',
  60: 'FATAL',
};

/** Turns pino's NDJSON into `12:00:01 INFO message key=value` for people at a terminal. */
class ReadableLines extends Writable {
  constructor(private readonly out: NodeJS.WritableStream) {
    super();
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line) this.out.write(`${formatLine(line)}\n`);
    }
    done();
  }
}

function formatLine(line: string): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  const { level, time, msg, ...rest } = record;
  const clock = typeof time === 'number' ? new Date(time).toISOString().slice(11, 19) : '';
  const fields = Object.entries(rest)
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(' ');
  return `${clock} ${LEVEL_NAMES[level as number] ?? level} ${msg ?? ''}${fields ? `  ${fields}` : ''}`;
}
