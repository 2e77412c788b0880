import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { buildCatalogue } from '../../catalogue/index.js';
import {
  ConfigError,
  requireApi,
  resolveWholeConfig,
  starterConfig,
  starterEnvExample,
  TOKEN_VARIABLE,
  type Config,
  type VenueEntry,
} from '../../config/index.js';
import { ExitCode, UsageError } from '../../errors/index.js';
import { callerAnswer } from '../../extract/index.js';
import { clientFor } from '../../runner/open-run.js';
import { booleanOption, listOption, stringOption } from '../args.js';
import type { Command, CommandIo, ParsedArgs } from '../command.js';
import { commandLogger } from '../context.js';

const CONFIG_FILE = 'venue-etl.config.json';
const ENV_FILE = '.env.example';
/** Written when --base-url is not given: a valid URL that plainly needs replacing. */
const PLACEHOLDER_BASE_URL = 'https://api.example.com';

export const initCommand: Command = {
  name: 'init',
  summary: `Write a commented ${CONFIG_FILE} and a ${ENV_FILE} into DIR; with ${TOKEN_VARIABLE} set and --base-url, check access with one request.`,
  options: {
    'base-url': { type: 'string', description: 'base address of the venue API', valueName: 'URL' },
    venues: { type: 'string', description: 'venue ids in scope (comma-separated UUIDs); ID=NAME names the venue', valueName: 'ID,ID=NAME' },
    projects: { type: 'string', description: 'project ids in scope (comma-separated UUIDs)', valueName: 'ID,ID' },
    dir: { type: 'string', description: 'where the files go (default: the current folder)', valueName: 'DIR' },
    force: { type: 'boolean', description: 'overwrite existing files' },
  },
  noConfig: true,
  async run(args, io) {
    const dir = resolve(stringOption(args, 'dir') ?? '.');
    const configFile = join(dir, CONFIG_FILE);
    const envFile = join(dir, ENV_FILE);
    const baseUrl = stringOption(args, 'base-url');
    const document = starterConfig({
      baseUrl: baseUrl ?? PLACEHOLDER_BASE_URL,
      token: `\${${TOKEN_VARIABLE}}`,
      venues: (listOption(args, 'venues') ?? []).map(venueEntry),
      projects: listOption(args, 'projects') ?? [],
    });
    // What is written loads: checked with the real loader before anything is written.
    const config = validated(document, io, dir);
    const existing = [configFile, envFile].filter((file) => existsSync(file));
    if (existing.length > 0 && !booleanOption(args, 'force')) {
      throw new UsageError(
        `${existing.join(' and ')} already exist${existing.length === 1 ? 's' : ''}; nothing was written`,
        'pass --force to overwrite, or --dir DIR to write elsewhere',
      );
    }
    mkdirSync(dir, { recursive: true });
    writeFileSync(configFile, `${JSON.stringify(document, null, 2)}\n`);
    writeFileSync(envFile, starterEnvExample());
    io.stdout.write(`wrote ${configFile}\nwrote ${envFile}\n`);

    const todo: string[] = [];
    if (baseUrl === undefined) todo.push(`set api.baseUrl in ${configFile}`);
    if (config.scope.venues.length === 0 && config.scope.projects.length === 0) todo.push('list venue and project ids in scope.venues and scope.projects');
    if (io.env[TOKEN_VARIABLE] === undefined || io.env[TOKEN_VARIABLE] === '') {
      todo.push(`export ${TOKEN_VARIABLE}=... (the API token; see ${ENV_FILE})`);
      io.stdout.write(`access not checked: ${TOKEN_VARIABLE} is not set\n`);
    } else if (baseUrl === undefined) {
      io.stdout.write('access not checked: give --base-url to check the token against the API\n');
    } else {
      io.stdout.write(`${await checkAccess(config, args, io)}\n`);
    }
    const flag = dir === resolve('.') ? '' : ` --config ${configFile}`;
    io.stdout.write(
      [
        `scope: ${count(config.scope.venues.length, 'venue')}, ${count(config.scope.projects.length, 'project')}`,
        ...todo.map((step) => `to do: ${step}`),
        `next: venue-etl config${flag}   then   venue-etl backfill --from DATE --to DATE --dry-run${flag}   then   venue-etl sync${flag}`,
        '',
      ].join('\n'),
    );
    return ExitCode.ok;
  },
};

/** `ID` or `ID=NAME` (the first `=` ends the id: a name may hold more). */
function venueEntry(item: string): VenueEntry {
  const at = item.indexOf('=');
  return at < 0 ? item : { id: item.slice(0, at).trim(), name: item.slice(at + 1).trim() };
}

function validated(document: unknown, io: CommandIo, dir: string): Config {
  // The token is not needed to know the document is valid: a stand-in when it is not set.
  const env = { ...io.env, [TOKEN_VARIABLE]: io.env[TOKEN_VARIABLE] || 'not-set' };
  try {
    return resolveWholeConfig(document, env, 'the config from these flags', dir);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    throw new UsageError(
      `the flags do not make a valid config: ${error.problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`,
      '--base-url takes an http(s) URL, --venues and --projects comma-separated UUIDs (a venue may be ID=NAME)',
    );
  }
}

/** The account of the access check's answer (the caller row: the token's own account). */
const CallerAccount = z.object({
  id: z.string(),
  attributes: z.object({ email: z.string().optional(), 'full-name': z.string().optional() }).optional(),
});

/** The access check sync runs first (one request), and what it says about the token. */
async function checkAccess(config: Config, args: ParsedArgs, io: CommandIo): Promise<string> {
  const ready = requireApi(config);
  const client = clientFor(ready, commandLogger(args, io, undefined, 'warn'));
  try {
    const answer = await callerAnswer(client, buildCatalogue(ready.endpoints).accessCheck, io.signal);
    const account = CallerAccount.safeParse(answer.data);
    if (!account.success) return `access ok: ${ready.api.baseUrl} accepted the token (its account answer was not the expected shape)`;
    const { email, 'full-name': name } = account.data.attributes ?? {};
    const who = [name, email === undefined ? undefined : `<${email}>`].filter(Boolean).join(' ');
    return `access ok: ${ready.api.baseUrl} accepted the token of ${who === '' ? 'account' : who} (account ${account.data.id})`;
  } finally {
    await client.close();
  }
}

const count = (n: number, noun: string): string => `${n} ${noun}${n === 1 ? '' : 's'}`;
