/**
 * Waiting on an event instead of sleeping: a sleep long enough for a loaded machine is wasted
 * time on an idle one, and still too short on a busier one. Both helpers fail with a message
 * that says what did not happen, and how long they waited.
 */
import type { ChildProcess } from 'node:child_process';

/**
 * Resolves once `text()` (what the child printed so far, gathered by the caller) matches
 * `pattern`; checked again on every chunk the child prints. Rejects when the child exits first
 * or after `timeoutMs`.
 */
export function waitForOutput(child: ChildProcess, text: () => string, pattern: RegExp, timeoutMs = 20_000): Promise<void> {
  if (pattern.test(text())) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const streams = [child.stdout, child.stderr].filter((s) => s !== null);
    const done = (error?: Error): void => {
      clearTimeout(timer);
      for (const stream of streams) stream.off('data', check);
      child.off('exit', exited);
      if (error) reject(error);
      else resolve();
    };
    // Listeners run in order: the caller's gatherer (added first) has the chunk already.
    const check = (): void => {
      if (pattern.test(text())) done();
    };
    const exited = (code: number | null, signal: NodeJS.Signals | null): void =>
      done(new Error(`the child exited (${code ?? signal}) before printing ${pattern}:\n${text().slice(-3000)}`));
    const timer = setTimeout(() => done(new Error(`no output matching ${pattern} within ${timeoutMs} ms:\n${text().slice(-3000)}`)), timeoutMs);
    for (const stream of streams) stream.on('data', check);
    child.on('exit', exited);
  });
}

/**
 * Polls `probe` every `intervalMs` until it returns a value (not undefined), for a state with no
 * event to wait on (a file appearing, a row committed by another process).
 */
export async function waitUntil<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 20_000, intervalMs = 25): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
