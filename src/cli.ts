#!/usr/bin/env node
import { limitYoungGeneration } from './runner/heap-growth.js';

const WRITING_COMMANDS = new Set(['sync', 'backfill']);

// Before the rest of the program is loaded: loading it grows V8's young generation to its
// 32 MB maximum otherwise, and a grown young generation never shrinks (runner/heap-growth.ts).
// Only for the commands that write a run, whose peak memory it lowers (~27 MB of ~280 MB for a
// 1,000-venue backfill): it costs more, smaller scavenges, and a command that builds its result
// in JavaScript pays that in time (the heaviest report on B7's data, 1.1M rows, took 10.5 s in a
// process with the cap against 4.0 s without).
if (WRITING_COMMANDS.has(process.argv[2] ?? '')) limitYoungGeneration();
const { runCli } = await import('./cli/main.js');
const { isOutputClosed, markOutputClosed } = await import('./infra/write-piece.js');

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

// A reader that closes stdout early (`venue-etl report … | head`) makes the next writes fail: a
// read stops at its next piece (src/infra/write-piece.ts) and exits 0; a sync goes on and records
// its run. Without this listener the stream's error event would end the process first.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (!isOutputClosed(error)) throw error;
  markOutputClosed(process.stdout);
});

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  signal: stop.signal,
  hurry: hurry.signal,
});
process.exitCode = code;
