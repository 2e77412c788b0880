/**
 * A webhook receiver for tests on 127.0.0.1: records every POST by path. Paths starting with
 * /fail answer 500, /hang never answer (the connection is held until close), anything else 200.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  readonly path: string;
  readonly body: string;
  readonly json: Record<string, unknown>;
  readonly at: number;
}

export interface HookServer {
  readonly url: string;
  readonly received: Received[];
  /** Bodies received on `path` or below it (each attempt, retries included). */
  on(path: string): Received[];
  close(): Promise<void>;
}

export async function startHookServer(): Promise<HookServer> {
  const received: Received[] = [];
  const hanging = new Set<ServerResponse>();
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = (request.url ?? '/').split('?')[0]!;
      let json: Record<string, unknown> = {};
      try {
        json = JSON.parse(body) as Record<string, unknown>;
      } catch {
        // Recorded as text; the test says what it expected.
      }
      received.push({ path, body, json, at: Date.now() });
      if (path.startsWith('/hang')) {
        hanging.add(response);
        return;
      }
      response.writeHead(path.startsWith('/fail') ? 500 : 200, { 'content-type': 'text/plain' });
      response.end(path.startsWith('/fail') ? 'no' : 'ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    on: (path) => received.filter((r) => r.path === path || r.path.startsWith(`${path}/`)),
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
