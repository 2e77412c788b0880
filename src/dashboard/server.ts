import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatError } from '../errors/index.js';
import type { Logger } from '../log/index.js';
import { scrubSecrets } from '../log/index.js';
import { openWarehouseSource } from '../readside/index.js';
import { authorizationChecker } from '../receiver/authorization.js';
import type { VenueLabelInput } from '../venue-names/index.js';
import { dashboardPage, type DashboardRequest } from './generate.js';

export interface DashboardServerOptions {
  readonly host: string;
  readonly port: number;
  readonly warehousePath: string;
  readonly request: () => DashboardRequest;
  /** The config's venue names (src/venue-names), shown on the page. */
  readonly labels?: VenueLabelInput;
  readonly logger: Logger;
  /** dashboard.authorization: the complete `Authorization` header a request must carry (401 otherwise). */
  readonly authorization?: string;
}

export interface RunningDashboardServer {
  readonly url: string;
  close(): Promise<void>;
}

/**
 * `GET /` answers the dashboard made from the warehouse at that moment. Inside `serve` the
 * file is opened the way serve's own writers open it, so a page being made never blocks a job
 * or a merge of this process (other processes wait for the file as they do for any writer);
 * every statement is still checked to be a read. Requests that arrive while a page is being
 * made share it rather than each reading the warehouse again.
 */
export async function startDashboardServer(options: DashboardServerOptions): Promise<RunningDashboardServer> {
  let inFlight: Promise<string> | undefined;
  const makePage = (): Promise<string> => {
    inFlight ??= (async () => {
      const source = await openWarehouseSource(options.warehousePath, {
        shareWithWriters: true,
        logger: options.logger,
        ...(options.labels ? { labels: options.labels } : {}),
      });
      try {
        return (await dashboardPage(source.connection, { ...options.request(), now: new Date() })).html;
      } finally {
        await source.close();
      }
    })().finally(() => {
      inFlight = undefined;
    });
    return inFlight;
  };

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void answer(req, res);
  });
  const isAuthorized = options.authorization === undefined ? undefined : authorizationChecker(options.authorization);
  const challenge = /^basic\s/i.test(options.authorization ?? '') ? { 'www-authenticate': 'Basic realm="venue-etl dashboard"' } : undefined;

  async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = (req.url ?? '/').split('?')[0];
    // Before anything else: without the credential, not even which paths exist is told.
    if (isAuthorized && !isAuthorized(req.headers.authorization)) return send(res, 401, 'text/plain', 'missing or wrong Authorization header\n', challenge);
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'GET only\n', { allow: 'GET, HEAD' });
    if (path !== '/' && path !== '/dashboard.html') return send(res, 404, 'text/plain', 'the dashboard is at /\n');
    try {
      const html = await makePage();
      send(res, 200, 'text/html; charset=utf-8', req.method === 'HEAD' ? '' : html, { 'cache-control': 'no-store' }, Buffer.byteLength(html));
    } catch (error) {
      const message = scrubSecrets(formatError(error));
      options.logger.error({ err: message }, 'dashboard: the page could not be made');
      send(res, 503, 'text/plain; charset=utf-8', `${message}\n`, { 'retry-after': '10' });
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  warnIfReachable(address.address, options);
  return {
    url: `http://${host}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The page holds every figure of the warehouse and the accounts' e-mail addresses: on an address
 * other than loopback (e.g. "0.0.0.0", every interface) it is served to whoever reaches the port.
 * Said once at start, louder without a credential.
 */
function warnIfReachable(address: string, options: DashboardServerOptions): void {
  if (isLoopback(address)) return;
  const fix =
    options.authorization === undefined ? '; set dashboard.authorization (e.g. "${VENUE_DASHBOARD_AUTHORIZATION}") or keep dashboard.host at 127.0.0.1' : '';
  options.logger.warn(
    { host: options.host, authorization: options.authorization === undefined ? 'none' : 'required' },
    `dashboard: listening on ${options.host}, beyond this machine: the page shows every figure of the warehouse and account e-mails${fix}`,
  );
}

function isLoopback(address: string): boolean {
  return /^(::ffff:)?127\./.test(address) || address === '::1';
}

function send(res: ServerResponse, status: number, type: string, body: string, headers: Record<string, string> = {}, length = Buffer.byteLength(body)): void {
  res.writeHead(status, { 'content-type': type, 'content-length': length, 'x-content-type-options': 'nosniff', ...headers });
  res.end(body);
}
