import { EtlError } from '../errors/index.js';
import { isOutOfMemory, outOfMemory } from './errors.js';

export interface WatchOptions {
  /** Aborted on SIGINT/SIGTERM: the running query is interrupted (VENUE_SQL_INTERRUPTED, exit 130). */
  readonly signal?: AbortSignal;
  /** The time limit of the whole work (query.timeoutSeconds, --timeout): VENUE_SQL_TIMEOUT past it. */
  readonly timeoutMs?: number;
  /** For the message when DuckDB stops at its memory limit. */
  readonly memoryLimit: string;
}

/**
 * DuckDB's interrupt flag is read by a running query; one raised between two statements of the
 * work could be missed by the next. It is raised again every 50 ms until the work has ended.
 */
const REPEAT_MS = 50;

/**
 * Runs `work` so that it can be stopped: `interrupt` (DuckDB's own interrupt) ends the query
 * where it is (measured: `SELECT count(*) FROM range(20000000000)` stopped 10 ms after it,
 * where SIGINT used to be ignored until the result came), and the error says why.
 */
export async function watched<T>(interrupt: () => void, options: WatchOptions, work: () => Promise<T>): Promise<T> {
  let reason: 'signal' | 'timeout' | undefined;
  let repeat: NodeJS.Timeout | undefined;
  const stop = (why: 'signal' | 'timeout'): void => {
    reason ??= why;
    interrupt();
    repeat ??= setInterval(interrupt, REPEAT_MS);
  };
  const onAbort = (): void => stop('signal');
  const timer = options.timeoutMs === undefined ? undefined : setTimeout(() => stop('timeout'), options.timeoutMs);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  if (options.signal?.aborted) stop('signal');
  try {
    const result = await work();
    if (reason !== undefined) throw stopped(reason, options, undefined);
    return result;
  } catch (error) {
    if (reason !== undefined) throw stopped(reason, options, error);
    if (isOutOfMemory(error) || isOutOfMemory((error as { cause?: unknown }).cause)) throw outOfMemory(options.memoryLimit, error);
    throw error;
  } finally {
    clearTimeout(timer);
    clearInterval(repeat);
    options.signal?.removeEventListener('abort', onAbort);
  }
}

function stopped(reason: 'signal' | 'timeout', options: WatchOptions, cause: unknown): EtlError {
  if (reason === 'timeout') {
    const seconds = Math.round((options.timeoutMs ?? 0) / 100) / 10;
    return new EtlError('VENUE_SQL_TIMEOUT', `the query ran past its time limit of ${seconds}s and was stopped`, {
      hint: 'narrow the query, or give it more time with --timeout SECONDS or query.timeoutSeconds in the config',
      cause,
      details: { timeoutMs: options.timeoutMs },
    });
  }
  const why = options.signal?.reason instanceof Error ? options.signal.reason.message : 'a signal';
  return new EtlError('VENUE_SQL_INTERRUPTED', `the query was interrupted (${why}); nothing was written`, {
    hint: 'run it again when you need its result; --timeout SECONDS stops a query on its own',
    cause,
  });
}
