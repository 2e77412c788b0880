import { once } from 'node:events';

/** The error a read's output stops with when its reader is gone (`venue-etl report … | head`). */
export class OutputClosedError extends Error {
  readonly code = 'EPIPE';
  constructor() {
    super('the output was closed by its reader');
  }
}

/** Whether `error` says the reader of an output is gone: its pipe broke or the stream was closed. */
export function isOutputClosed(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof OutputClosedError || code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED';
}

/** The outputs whose reader is gone (process.stdout stays open to Node after EPIPE: not `destroyed`). */
const closedOutputs = new WeakSet<object>();

/** Marks `out` as closed by its reader (its 'error' listener calls this). */
export function markOutputClosed(out: object): void {
  closedOutputs.add(out);
}

/** Whether the reader of `out` is gone. */
export function outputClosed(out: object): boolean {
  return closedOutputs.has(out) || (out as { destroyed?: boolean }).destroyed === true;
}

/**
 * Writes one piece of a read's output, waiting for the stream to drain when its buffer is full
 * (the wait ends with the stream's error: EPIPE when its reader is gone). A stream destroyed
 * before stops the read here: a write to it returns false, and its 'drain' never comes.
 */
export async function writePiece(out: NodeJS.WritableStream, piece: string | Uint8Array): Promise<void> {
  if (outputClosed(out)) throw new OutputClosedError();
  if (!out.write(piece)) await once(out, 'drain');
}
