import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendJson } from '../infra/send-json.js';

export interface MetricsServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * GET /metrics (Prometheus text format) and GET /healthz on their own address: never the
 * receiver's port, which is the one opened to the platform.
 */
export async function startMetricsServer(options: {
  readonly host: string;
  readonly port: number;
  readonly metrics: () => Promise<{ text: string; contentType: string }>;
  readonly health: () => Promise<Record<string, unknown>> | Record<string, unknown>;
}): Promise<MetricsServer> {
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?', 1)[0];
    if (request.method !== 'GET') {
      sendJson(response, 405, { error: { code: 'method_not_allowed', message: 'GET only' } });
      return;
    }
    if (path === '/metrics') {
      options
        .metrics()
        .then(({ text, contentType }) => {
          response.writeHead(200, { 'content-type': contentType });
          response.end(text);
        })
        .catch(() => sendJson(response, 500, { error: { code: 'internal', message: 'could not collect the metrics' } }));
      return;
    }
    if (path === '/healthz') {
      Promise.resolve(options.health())
        .then((health) => sendJson(response, 200, health))
        .catch(() => sendJson(response, 500, { error: { code: 'internal', message: 'could not read the health' } }));
      return;
    }
    sendJson(response, 404, { error: { code: 'not_found', message: 'GET /metrics or /healthz' } });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
