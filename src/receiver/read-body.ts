import type { IncomingMessage } from 'node:http';

export type BodyRead = { readonly kind: 'body'; readonly body: Buffer } | { readonly kind: 'too-large' } | { readonly kind: 'aborted' };

/**
 * Reads the request body, giving up as soon as it passes `maxBytes`: a declared
 * Content-Length over the limit is refused before a byte is read, and a chunked body stops
 * being buffered the moment it crosses the limit.
 */
export function readBody(request: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const declared = request.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyRead): void => {
      if (settled) return;
      settled = true;
      request.off('data', onData);
      request.off('end', onEnd);
      request.off('error', onAbort);
      request.off('close', onClose);
      resolve(result);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > maxBytes) {
        chunks.length = 0;
        settle({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => settle({ kind: 'body', body: Buffer.concat(chunks, size) });
    const onAbort = (): void => settle({ kind: 'aborted' });
    const onClose = (): void => {
      if (!request.complete) onAbort();
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onAbort);
    request.on('close', onClose);
  });
}
