// prepack: `npm pack --pack-destination DIR` writes the tarball into DIR but does not create it,
// so a DIR that did not exist yet failed with ENOENT after the whole build (npm 11.19). npm gives
// the option to the package's scripts as npm_config_pack_destination, relative to the folder npm
// was run from (INIT_CWD), where npm itself resolves it; without the option there is nothing to do.
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';

const destination = process.env.npm_config_pack_destination;
if (destination) mkdirSync(resolve(process.env.INIT_CWD ?? process.cwd(), destination), { recursive: true });
