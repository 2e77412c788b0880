import { ExitCode } from '../../errors/index.js';
import { printableConfig } from '../../config/index.js';
import { scrubSecrets } from '../../log/index.js';
import { loadCommandConfig } from '../context.js';
import type { Command } from '../command.js';

export const configCommand: Command = {
  name: 'config',
  summary: 'Validate the config file and print it resolved (defaults applied, ${ENV} replaced, secrets masked).',
  options: {},
  async run(args, io) {
    const config = loadCommandConfig(args, io);
    // Scrubbed as well: a secret in a key the mask does not know (a URL with a password) is registered.
    io.stdout.write(`${scrubSecrets(JSON.stringify(printableConfig(config), null, 2))}\n`);
    return ExitCode.ok;
  },
};
