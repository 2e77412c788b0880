import { ExitCode } from '../../errors/index.js';
import { loadWholeConfigFile, printableConfig } from '../../config/index.js';
import { scrubSecrets } from '../../log/index.js';
import { configPath } from '../context.js';
import { commandReadiness, readinessLines } from '../config-readiness.js';
import type { Command } from '../command.js';

export const configCommand: Command = {
  name: 'config',
  summary:
    'Validate the config file for every command and print it resolved (defaults applied, ${ENV} replaced, secrets masked); stderr says what each command needs.',
  options: {},
  async run(args, io) {
    const path = configPath(args);
    const { raw, config } = loadWholeConfigFile(path, io.env);
    const readiness = commandReadiness(raw, config, path);
    // Scrubbed as well: a secret in a key the mask does not know (a URL with a password) is registered.
    io.stdout.write(`${scrubSecrets(JSON.stringify(printableConfig(config), null, 2))}\n`);
    io.stderr.write(`${readinessLines(readiness).join('\n')}\n`);
    return ExitCode.ok;
  },
};
