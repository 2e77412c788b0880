import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { EtlError } from '../../errors/index.js';
import { FaultSpecError, type FaultSpec } from '../faults/fault-spec.js';
import type { RoleChanges } from '../world/role-book.js';
import type { World } from '../world/world.js';
import { HttpError, badRequest, notFound } from './http-error.js';
import type { RecordedRequest } from './request-log.js';

/** What the control endpoints drive: the same operations the in-process Simulator offers. */
export interface SimulatorControls {
  readonly world: World;
  /** API requests answered so far, in the order they finished. */
  readonly requests: readonly RecordedRequest[];
  /** The fault spec in force. */
  readonly faults: FaultSpec;
  /** The revision epoch: how many times `revise()` was called. */
  readonly revision: number;
  clearRequests(): void;
  /** Late data: the values of today and the `reviseRecentDays` days before it change. */
  revise(): void;
  /** Seeded changes: one role added, one removed (never `me`'s), one's permissions changed. */
  mutateRoles(): RoleChanges;
  setFaults(spec: string | FaultSpec): void;
}

export const CONTROL_PREFIX = '/__sim/';
const MAX_BODY_BYTES = 64 * 1024;

// POST /__sim/faults takes the spec as plain text, a JSON string, or {"faults": string | object}.
const FaultsBody = z.union([z.string(), z.object({ faults: z.union([z.string(), z.record(z.string(), z.unknown())]) })]);

/**
 * Control endpoints for tests that drive a simulator in another process. Same bearer token as
 * the API; answers are plain JSON; never logged as API requests and never faulted.
 */
export async function handleControl(request: IncomingMessage, response: ServerResponse, token: string, controls: SimulatorControls): Promise<void> {
  let status = 200;
  let body: unknown;
  try {
    if (request.headers.authorization !== `Bearer ${token}`) {
      throw new HttpError(401, 'not_authenticated', 'Unauthorized', 'control endpoints need the bearer token');
    }
    const path = (request.url ?? '').split('?')[0] ?? '';
    body = await dispatch(`${request.method} ${path.slice(CONTROL_PREFIX.length)}`, request, controls);
  } catch (error) {
    const httpError =
      error instanceof FaultSpecError
        ? badRequest(error.message)
        : error instanceof EtlError
          ? new HttpError(409, error.code, 'Conflict', error.message)
          : error;
    if (!(httpError instanceof HttpError)) throw error;
    status = httpError.status;
    body = httpError.toDocument();
  }
  const text = JSON.stringify(body);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
  response.end(text);
}

async function dispatch(action: string, request: IncomingMessage, controls: SimulatorControls): Promise<unknown> {
  switch (action.replace(/\/$/, '')) {
    case 'GET world':
      return controls.world;
    case 'GET requests':
      return { requests: controls.requests };
    case 'DELETE requests':
      controls.clearRequests();
      return { requests: [] };
    case 'POST revise':
      controls.revise();
      return { revision: controls.revision };
    case 'POST mutate-roles':
      return controls.mutateRoles();
    case 'GET faults':
      return { faults: controls.faults };
    case 'POST faults': {
      const parsed = FaultsBody.safeParse(await readBody(request));
      if (!parsed.success) throw badRequest('send the fault spec as text, or JSON {"faults": "429=0.1,…"}');
      const spec = typeof parsed.data === 'string' ? parsed.data : parsed.data.faults;
      controls.setFaults(spec as string | FaultSpec);
      return { faults: controls.faults };
    }
    default:
      throw notFound(`no control endpoint "${action}"`);
  }
}

/** The body as JSON when it says so, as text otherwise. */
async function readBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new HttpError(413, 'too_large', 'Payload Too Large', `control bodies are limited to ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (!(request.headers['content-type'] ?? '').includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw badRequest('the body is not valid JSON');
  }
}
