/** Answers a hostile server sends: bodies too large to hold, compressed ones, bombs. */
import type { ServerResponse } from 'node:http';
import { gzipSync } from 'node:zlib';

export const MiB = 1024 * 1024;

export interface StreamedBody {
  /** Bytes the server managed to hand to its socket before the client went away. */
  readonly written: number;
  /** True once the server stopped: everything written, or the client closed the connection. */
  readonly done: Promise<void>;
}

/**
 * Streams `total` bytes of a JSON-looking body (chunked, no Content-Length unless `declare`),
 * honouring backpressure, and stops as soon as the client closes the connection.
 */
export function streamBody(res: ServerResponse, total: number, options: { readonly declare?: boolean; readonly status?: number } = {}): StreamedBody {
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  const state = { written: 0 };
  res.writeHead(options.status ?? 200, {
    'content-type': 'application/vnd.api+json',
    ...(options.declare ? { 'content-length': String(total + 2) } : {}),
  });
  const done = new Promise<void>((resolve) => {
    let closed = false;
    res.on('close', () => {
      closed = true;
      resolve();
    });
    const pump = (): void => {
      if (state.written === 0) res.write('{"');
      while (!closed && state.written < total) {
        const part = chunk.subarray(0, Math.min(chunk.length, total - state.written));
        state.written += part.length;
        if (!res.write(part)) {
          res.once('drain', pump);
          return;
        }
      }
      if (!closed) res.end('"}');
    };
    pump();
  });
  return {
    get written() {
      return state.written;
    },
    done,
  };
}

/** A gzip stream of `bytes` spaces inside a JSON string: a few KB that decode to `bytes`. */
export function gzipBomb(bytes: number): Buffer {
  return gzipSync(Buffer.concat([Buffer.from('{"padding":"'), Buffer.alloc(bytes, 0x20), Buffer.from('"}')]), { level: 9 });
}

export function sendEncoded(res: ServerResponse, body: Buffer, encoding: string | undefined, status = 200): void {
  res.writeHead(status, {
    'content-type': 'application/vnd.api+json',
    'content-length': String(body.length),
    ...(encoding === undefined ? {} : { 'content-encoding': encoding }),
  });
  res.end(body);
}
