/**
 * An ApiClient that answers history requests from bodies held in memory: the runner, the
 * normalizer and the warehouse run for real, with the network taken out. Each answer is
 * parsed and checked exactly as the real client does (JSON.parse + JSON:API envelope).
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { ApiClient } from '../src/api/client.js';
import { toJsonApiDocument } from '../src/api/jsonapi.js';
import type { ClientStats, RequestCounts } from '../src/api/stats.js';
import type { SeriesBodies } from './series-bodies.js';

export function memoryClient(bodies: SeriesBodies): ApiClient {
  let requests = 0;
  let bytes = 0;
  const stats: ClientStats = {
    get requests() {
      return requests;
    },
    retries: 0,
    pages: 0,
    failures: 0,
    aborted: 0,
    throttled: 0,
    get ok() {
      return requests;
    },
    serverErrors: 0,
    get bytes() {
      return bytes;
    },
    durationMs: 0,
    concurrency: 0,
    byStream: new Map<string, RequestCounts>(),
  };
  return {
    baseUrl: 'memory:',
    async getDocument(pathOrUrl) {
      // /analytics/<stream>/<venue>/?from=YYYY-MM-DD&to=YYYY-MM-DD
      const [path = '', query = ''] = pathOrUrl.split('?');
      const [, , stream = '', scopeId = ''] = path.split('/');
      const from = new URLSearchParams(query).get('from') ?? '';
      const text = bodies.body(stream, scopeId, from);
      // A real answer arrives in its own turn of the event loop (socket data): so here too.
      // Resolved in the same turn, extraction would run as one long chain of microtasks and
      // hold back the warehouse's completions until the committer's queue is full.
      await nextTurn();
      requests += 1;
      bytes += text.length;
      return toJsonApiDocument(JSON.parse(text), `GET ${pathOrUrl}`);
    },
    // biome-ignore lint/correctness/useYield: an async generator that only throws: the memory client has no paged endpoints.
    async *paginate(path) {
      throw new Error(`the memory client serves history endpoints only, not ${path}`);
    },
    stats,
    // No rate limit to remember: the bodies are in memory.
    rememberRateLimit() {},
    logSummary() {},
    async close() {},
  };
}
