// tsc writes dist/src/cli.js with mode 0644; the package's bin must be executable wherever it
// is run from (npx in the checkout, a linked install, a container) — npm only sets the bit when
// it links the bin itself, and a cached link from an earlier build does not.
import { chmodSync } from 'node:fs';

chmodSync(new URL('../dist/src/cli.js', import.meta.url), 0o755);
