// The package's bin (bin/venue-etl, the launcher) must be executable wherever it is run from
// (npx in the checkout, a linked install, a container): git keeps its mode, but a copy or an
// archive may not, and npm only sets the bit when it links the bin itself. tsc writes
// dist/src/cli.js with mode 0644; it stays directly runnable too (without the launcher's
// allocator settings).
import { chmodSync } from 'node:fs';

chmodSync(new URL('../bin/venue-etl', import.meta.url), 0o755);
chmodSync(new URL('../dist/src/cli.js', import.meta.url), 0o755);
