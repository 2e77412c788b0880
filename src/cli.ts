#!/usr/bin/env node
import { limitYoungGeneration } from './runner/heap-growth.js';

// Before the rest of the program is loaded: loading it grows V8's young generation to its
// 32 MB maximum otherwise, and a grown young generation never shrinks (runner/heap-growth.ts).
limitYoungGeneration();
const { runCli } = await import('./cli/main.js');

// SIGINT/SIGTERM: the first stops the command (it commits what is finished and records its run);
// a second hurries it (nothing more is waited for) and it still records its run before it exits;
// a third exits at once (a run left 'running' is then marked failed by the next one).
const stop = new AbortController();
const hurry = new AbortController();
let signals = 0;
for (const name of ['SIGINT', 'SIGTERM'] as const) {
  process.on(name, () => {
    signals += 1;
    if (signals === 1) stop.abort(new Error(`received ${name}`));
    else if (signals === 2) hurry.abort(new Error(`received a second ${name}`));
    else process.exit(130);
  });
}

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: stop.signal,
  hurry: hurry.signal,
});
process.exitCode = code;
