/**
 * The event receiver of the built package in a child process (so it can be killed with
 * SIGKILL, and a crash cannot take the test down), and a small HTTP client to talk to it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { type Agent, request } from 'node:http';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CLI, childEnv, REPO_ROOT } from '../e2e/harness.js';

/** Modules of the same build the CLI runs from (dist/, or VENUE_ETL_E2E_CLI's build). */
const moduleUrl = (path: string): string => pathToFileURL(join(dirname(CLI), path)).href;

export interface ReceiverChildOptions {
  readonly authorization: string;
  readonly journalDir: string;
  readonly warehousePath: string;
  readonly maxBodyBytes?: number;
  readonly mergeIntervalMs?: number;
  readonly logLevel?: string;
  readonly env?: Readonly<Record<string, string>>;
}

export interface ReceiverChild {
  readonly child: ChildProcess;
  readonly url: string;
  stderr(): string;
  /** Lines the child printed on stderr so far that match. */
  count(pattern: RegExp): number;
  /** Resolves when the child has exited (code or signal). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  kill(): Promise<void>;
  /** Merges what the journal holds, closes the receiver, and exits; resolves with the merge result. */
  mergeAndStop(): Promise<Record<string, unknown>>;
}

export async function startReceiverChild(options: ReceiverChildOptions): Promise<ReceiverChild> {
  const script = `
    const { startReceiver } = await import(${JSON.stringify(moduleUrl('receiver/index.js'))});
    const { createLogger } = await import(${JSON.stringify(moduleUrl('log/index.js'))});
    const receiver = await startReceiver({
      host: '127.0.0.1', port: 0, authorization: process.env.RECEIVER_AUTHORIZATION,
      maxBodyBytes: ${options.maxBodyBytes ?? 1_048_576},
      journalDir: ${JSON.stringify(options.journalDir)}, warehousePath: ${JSON.stringify(options.warehousePath)},
      logger: createLogger({ level: ${JSON.stringify(options.logLevel ?? 'warn')}, pretty: false }),
      mergeIntervalMs: ${options.mergeIntervalMs ?? 50},
    });
    process.stdin.on('data', async () => {
      const result = await receiver.mergeNow();
      await receiver.close();
      process.stdout.write('done ' + JSON.stringify(result) + '\\n');
      process.exit(0);
    });
    process.stdout.write('ready ' + receiver.url + '\\n');`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: REPO_ROOT,
    // The credential travels in the environment, not on the command line.
    env: childEnv({ RECEIVER_AUTHORIZATION: options.authorization, ...options.env }),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.on('data', (data: Buffer) => (stderr += data.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (data: Buffer) => {
      stdout += data.toString('utf8');
      const match = /ready (\S+)/.exec(stdout);
      if (match) resolve(match[1]!);
    });
    void exited.then(({ code, signal }) => reject(new Error(`receiver child exited early (${code ?? signal}): ${stderr}`)));
  });
  return {
    child,
    url,
    stderr: () => stderr,
    count: (pattern) => stderr.split('\n').filter((line) => pattern.test(line)).length,
    exited,
    async kill() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async mergeAndStop() {
      const done = new Promise<Record<string, unknown>>((resolve, reject) => {
        child.stdout!.on('data', () => {
          const match = /done (.+)\n/.exec(stdout);
          if (match) resolve(JSON.parse(match[1]!) as Record<string, unknown>);
        });
        void exited.then(({ code, signal }) => reject(new Error(`receiver child exited (${code ?? signal}) before merging: ${stderr}`)));
      });
      child.stdin!.write('merge\n');
      const result = await done;
      await exited;
      return result;
    },
  };
}

export interface Reply {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

export interface PostOptions {
  readonly headers?: Readonly<Record<string, string | undefined>>;
  readonly agent?: Agent;
  readonly path?: string;
  readonly method?: string;
}

/**
 * POSTs raw bytes with exactly the given headers (Content-Length added). Resolves with the answer,
 * also when the server answered early and closed the connection while the body was still going.
 */
export function postRaw(url: string, body: Buffer | string, options: PostOptions = {}): Promise<Reply> {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const headers: Record<string, string> = { 'content-length': String(bytes.length) };
  for (const [key, value] of Object.entries(options.headers ?? {})) if (value !== undefined) headers[key] = value;
  return new Promise((resolve, reject) => {
    let answered = false;
    const req = request(new URL(options.path ?? '/users/', url), { method: options.method ?? 'POST', headers, agent: options.agent ?? false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', (error) => {
      // EPIPE/ECONNRESET after an early answer are expected; without an answer they are failures.
      if (!answered) reject(error);
    });
    req.end(bytes);
  });
}
