#!/usr/bin/env node
import { runCli } from './cli/main.js';

// SIGINT/SIGTERM abort the running command's signal; commands stop after what is committing.
// A second signal exits at once.
const controller = new AbortController();
let signals = 0;
for (const name of ['SIGINT', 'SIGTERM'] as const) {
  process.on(name, () => {
    signals += 1;
    if (signals > 1) process.exit(130);
    controller.abort(new Error(`received ${name}`));
  });
}

const code = await runCli(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  signal: controller.signal,
});
process.exitCode = code;
