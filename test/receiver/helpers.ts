import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type Agent } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { createLogger, type Logger } from '../../src/log/index.js';
import type { StartReceiverOptions } from '../../src/receiver/index.js';
import { openWarehouse, type Row } from '../../src/warehouse/index.js';

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
export const AUTH = 'Basic cmVjZWl2ZXI6czNjcmV0LXBhc3N3b3Jk';

export function tempDir(): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-receiver-'));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A logger whose NDJSON lines the test can read back (what the code really writes). */
/**
 * The receiver as these tests start it: on 127.0.0.1 at a free port, with the test credential,
 * 64 KiB bodies, a quiet logger and merges only when asked; `options` adds the journal and the
 * warehouse and overrides the rest.
 */
export function receiverOptions(options: Partial<StartReceiverOptions> & Pick<StartReceiverOptions, 'journalDir'>): StartReceiverOptions {
  return { host: '127.0.0.1', port: 0, authorization: AUTH, maxBodyBytes: 65536, logger: capturedLogger().logger, mergeIntervalMs: 0, ...options };
}

export function capturedLogger(level: 'debug' | 'info' = 'debug'): { logger: Logger; lines: () => string } {
  let text = '';
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString('utf8');
      done();
    },
  });
  return { logger: createLogger({ level, destination, pretty: false }), lines: () => text };
}

/** The receiver's JSON answer: accepted with an event id, or refused with a stable code. */
const replySchema = z.looseObject({
  status: z.string().optional(),
  event_id: z.string().optional(),
  error: z
    .looseObject({
      code: z.string(),
      message: z.string(),
      fields: z.array(z.looseObject({ path: z.string() })).optional(),
    })
    .optional(),
});
export type Reply = z.infer<typeof replySchema>;

export interface Answer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
  json(): Reply;
}

export interface PostOptions {
  readonly path?: string;
  readonly method?: string;
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** Sent in chunks without Content-Length (chunked encoding). */
  readonly chunks?: readonly Buffer[];
  /** Default: a fresh connection per request. */
  readonly agent?: Agent;
}

/** One request on a fresh connection, with full control over headers (node:http, no defaults added). */
export function post(url: string, body: string | Buffer | undefined, options: PostOptions = {}): Promise<Answer> {
  const target = new URL(options.path ?? '/users/', url);
  return new Promise((resolvePromise, reject) => {
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(options.headers ?? { 'content-type': 'application/json', authorization: AUTH })) {
      if (value !== undefined) headers[key] = value;
    }
    if (body !== undefined && !options.chunks) headers['content-length'] = String(Buffer.byteLength(body));
    const req = httpRequest(target, { method: options.method ?? 'POST', headers, agent: options.agent ?? false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolvePromise({ status: res.statusCode ?? 0, headers: res.headers, body: text, json: () => replySchema.parse(JSON.parse(text)) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (options.chunks) {
      // Write chunk by chunk; the server may answer (and close) before the last one.
      let i = 0;
      const next = (): void => {
        if (i >= options.chunks!.length || req.destroyed) return void req.end();
        req.write(options.chunks![i++], () => setImmediate(next));
      };
      next();
    } else {
      req.end(body);
    }
  });
}

export const USER_1 = '0d6f7d0e-6a8f-4c43-9e1a-6a1b2c3d4e01';
export const USER_2 = '0d6f7d0e-6a8f-4c43-9e1a-6a1b2c3d4e02';
export const VENUE_1 = '7a1e2b3c-1111-4aaa-8bbb-0c0d0e0f1001';
export const VENUE_2 = '7a1e2b3c-1111-4aaa-8bbb-0c0d0e0f1002';

export interface EventParts {
  readonly user?: string;
  readonly venue?: string;
  readonly visits?: number;
  readonly first?: string;
  readonly last?: string;
  readonly accepted?: string;
  readonly texts?: readonly string[];
  readonly email?: string;
  readonly userExtra?: Record<string, unknown>;
  readonly venueName?: string;
}

/** A full-form event body as the platform sends it (docs/api.md §6). */
export function eventBody(parts: EventParts = {}): string {
  return JSON.stringify({
    data: {
      user: {
        id: parts.user ?? USER_1,
        email: parts.email ?? 'ana@example.com',
        'email-confirmed': true,
        'first-name': 'Ana',
        'last-name': 'Kowalska',
        phone: '+48123456789',
        'phone-confirmed': false,
        language: 'pl',
        'birth-date': '1990-04-05',
        gender: 'female',
        'is-subscribed': true,
        ...parts.userExtra,
      },
      venue: {
        id: parts.venue ?? VENUE_1,
        name: parts.venueName ?? 'Cafe Central',
        address: 'Rynek 1',
        city: 'Krakow',
        country: 'PL',
        'created-at': '2024-03-01T09:30:00.123456+01:00',
      },
      'user-venue-history': {
        'visits-count': parts.visits ?? 3,
        'first-visit-on': parts.first ?? '2026-01-01T10:00:00+00:00',
        'last-visit-on': parts.last ?? '2026-01-10T18:00:00+00:00',
      },
      'user-venue-agreements': {
        'accepted-date': parts.accepted ?? '2026-01-01T10:00:05+00:00',
        texts: parts.texts ?? ['I accept the terms of use.'],
      },
    },
  });
}

/** A row of upsert_events as readTables selects it. */
export interface StoredEvent extends Row {
  readonly event_id: string;
  readonly user_id: string;
  readonly venue_id: string;
  readonly body: string;
}

/** Reads rows back through the warehouse layer (a fresh open: what another process would see). */
export async function readTables(path: string): Promise<{
  events: StoredEvent[];
  users: Row[];
  venues: Row[];
  history: Row[];
  agreements: Row[];
}> {
  const warehouse = await openWarehouse(path, { readOnly: true });
  try {
    return {
      events: await warehouse.query<StoredEvent>(
        'SELECT event_id, user_id::VARCHAR AS user_id, venue_id::VARCHAR AS venue_id, body::VARCHAR AS body FROM upsert_events ORDER BY event_id',
      ),
      users: await warehouse.query('SELECT * EXCLUDE (updated_at) FROM users ORDER BY user_id'),
      venues: await warehouse.query('SELECT * EXCLUDE (updated_at) FROM venues ORDER BY venue_id'),
      history: await warehouse.query(
        `SELECT user_id::VARCHAR AS user_id, venue_id::VARCHAR AS venue_id, visits_count::INTEGER AS visits_count,
                strftime(first_visit_on AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS first_visit_on,
                strftime(last_visit_on AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS last_visit_on
           FROM user_venue_history ORDER BY user_id, venue_id`,
      ),
      agreements: await warehouse.query(
        `SELECT user_id::VARCHAR AS user_id, venue_id::VARCHAR AS venue_id,
                strftime(accepted_date AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%SZ') AS accepted_date, texts, event_id
           FROM user_venue_agreements ORDER BY user_id, venue_id, accepted_date`,
      ),
    };
  } finally {
    await warehouse.close();
  }
}

/**
 * Another process holds the warehouse's write lock (as a long sync would) until `release()`.
 * The child keeps its DuckDB instance reachable: a collected instance would free the lock early.
 */
export async function holdWarehouseLock(path: string): Promise<{ release(): Promise<void> }> {
  const script = `
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(${JSON.stringify(path)});
    const connection = await instance.connect();
    await connection.run('CREATE TABLE IF NOT EXISTS held (x INTEGER)');
    process.stdout.write('held\\n');
    setInterval(() => [instance, connection], 1000);
    process.stdin.on('end', () => { connection.closeSync(); instance.closeSync(); process.exit(0); });
    process.stdin.resume();`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { cwd: repoRoot, stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolvePromise, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolvePromise());
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`the lock holder exited early (${code})`)));
  });
  return {
    async release() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolvePromise) => child.once('exit', resolvePromise));
      child.stdin!.end();
      await exited;
    },
  };
}
