import type { IncomingMessage } from 'node:http';
import type { GroundTruth } from '../truth/ground-truth.js';
import { UnknownEntityError } from '../world/world-index.js';
import type { World } from '../world/world.js';
import { HttpError, notFound } from './http-error.js';
import type { PageSizes } from './pagination.js';
import { route } from './routes.js';

export const JSONAPI_MEDIA_TYPE = 'application/vnd.api+json';

export interface ApiAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  /** The body already serialized (a hostile answer may hold text no JSON.stringify writes). */
  readonly text?: string;
}

export interface ApiDependencies {
  readonly truth: GroundTruth;
  readonly world: World;
  readonly token: string;
  readonly pageSizes: PageSizes;
}

/**
 * The answer to an API request, before any fault: checks in the order 401, 406, 405, 404, 400.
 * Links are built from the Host header the client used; `serverUrl` when it sent none.
 */
export function answerApi(request: IncomingMessage, deps: ApiDependencies, serverUrl: string): ApiAnswer {
  try {
    checkAuthorization(request, deps.token);
    checkAccept(request);
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      throw new HttpError(405, 'method_not_allowed', 'Method Not Allowed', `${request.method} is not allowed; the API is read-only`, undefined, {
        Allow: 'GET, HEAD',
      });
    }
    const raw = request.url ?? '/';
    const queryAt = raw.indexOf('?');
    const rawQuery = queryAt === -1 ? '' : raw.slice(queryAt + 1);
    const host = request.headers.host;
    const body = route({
      truth: deps.truth,
      world: deps.world,
      pageSizes: deps.pageSizes,
      query: new URLSearchParams(rawQuery),
      rawQuery,
      path: queryAt === -1 ? raw : raw.slice(0, queryAt),
      origin: host ? `http://${host}` : serverUrl,
    });
    return { status: 200, body, headers: {} };
  } catch (error) {
    const httpError = error instanceof UnknownEntityError ? notFound(`${error.entity} ${error.id} does not exist`) : error;
    if (httpError instanceof HttpError) return { status: httpError.status, body: httpError.toDocument(), headers: httpError.headers };
    throw error;
  }
}

function checkAuthorization(request: IncomingMessage, token: string): void {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(.+)$/i.exec(header);
  if (match?.[1] !== token) {
    throw new HttpError(
      401,
      'not_authenticated',
      'Unauthorized',
      header ? 'the bearer token is not valid' : 'missing "Authorization: Bearer <token>" header',
      undefined,
      {
        'WWW-Authenticate': 'Bearer realm="venue-api"',
      },
    );
  }
}

function checkAccept(request: IncomingMessage): void {
  const accept = request.headers.accept ?? '';
  const ok = accept.split(',').some((entry) => entry.split(';')[0]?.trim().toLowerCase() === JSONAPI_MEDIA_TYPE);
  if (!ok) throw new HttpError(406, 'not_acceptable', 'Not Acceptable', `send "Accept: ${JSONAPI_MEDIA_TYPE}" (got "${accept}")`);
}
