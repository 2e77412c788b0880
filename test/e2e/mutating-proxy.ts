/**
 * A small HTTP server in front of the simulator that hands each request to the test, which may
 * forward it (and rewrite the answer) or answer something hostile itself.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Upstream {
  readonly status: number;
  readonly contentType: string;
  readonly body: Buffer;
}

/** What the test does with one request; `forward` asks the simulator the same question (or `path`). */
export type Mutation = (req: IncomingMessage, res: ServerResponse, forward: (path?: string) => Promise<Upstream>) => unknown;

export interface TestHost {
  /** `http://127.0.0.1:<port>` */
  readonly url: string;
  /** `GET /path?query` of every request received. */
  readonly requests: string[];
  close(): Promise<void>;
}

export async function startMutatingProxy(target: string, mutate: Mutation): Promise<TestHost> {
  return startHost((req, res) =>
    mutate(req, res, async (path = req.url ?? '/') => {
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'accept']) {
        const value = req.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const answer = await fetch(`${target}${path}`, { headers });
      return {
        status: answer.status,
        contentType: answer.headers.get('content-type') ?? 'application/vnd.api+json',
        body: Buffer.from(await answer.arrayBuffer()),
      };
    }),
  );
}

/** A plain host that answers `handler` and records what it was asked (e.g. a foreign origin). */
export async function startHost(handler: (req: IncomingMessage, res: ServerResponse) => unknown): Promise<TestHost> {
  const requests: string[] = [];
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    Promise.resolve(handler(req, res)).catch((error: unknown) => res.destroy(error instanceof Error ? error : new Error(String(error))));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
