import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import cron from 'node-cron';
import { isTimeZone } from '../calendar/index.js';
import { codeOf, EtlError } from '../errors/index.js';
import { BUILTIN_STREAMS } from '../catalogue/index.js';
import { describeJsonSyntaxError } from './json-syntax.js';
import { issueProblems } from './issue-message.js';
import { unknownKeyMessage } from './known-keys.js';
import { didYouMean } from '../infra/did-you-mean.js';
import { ConfigSchema, type ApiReadyConfig, type Config } from './schema.js';
import { registerConfigSecrets } from './mask.js';
import { LAKE_FOLDER_HINT, lakeFolderProblem } from './lake-folder.js';
import { literalSecretProblems } from '../lake/settings.js';
import { isS3Target, parseS3Target } from '../lake/target.js';
import { interpolateEnv, formatPath, referencedValues, type ConfigProblem } from './interpolate.js';
import { CONFIG_COMMANDS, commandProblems, reads, unreadKeys, type ConfigCommand } from './command-needs.js';

export const DEFAULT_CONFIG_PATH = './venue-etl.config.json';

export class ConfigError extends EtlError {
  readonly problems: readonly ConfigProblem[];

  constructor(source: string, problems: readonly ConfigProblem[], hint?: string) {
    const lines = problemLines(problems).join('\n');
    super('VENUE_ETL_CONFIG', `${source} has ${problems.length} problem${problems.length === 1 ? '' : 's'}:\n${lines}`, {
      hint: hint ?? 'Fix the listed keys; config.example.json documents every key.',
      details: { problems },
    });
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/**
 * One line per problem, except that the same problem at many indexes of one list (1,000 venue
 * ids that are not UUIDs) is one line naming the first few: the error stays readable.
 */
function problemLines(problems: readonly ConfigProblem[]): string[] {
  const shown = 3;
  const groups = new Map<string, ConfigProblem[]>();
  for (const problem of problems) {
    const key = `${problem.path.replace(/\[\d+\]/g, '[]')}\u0000${problem.message}`;
    const group = groups.get(key);
    if (group) group.push(problem);
    else groups.set(key, [problem]);
  }
  return [...groups.values()].map((group) => {
    const [first] = group;
    if (first === undefined || group.length <= shown) return group.map((p) => `  - ${p.path}: ${p.message}`).join('\n');
    const paths = group.slice(0, shown).map((p) => p.path);
    return `  - ${paths.join(', ')} and ${group.length - shown} more like them: ${first.message}`;
  });
}

/** Validates an already parsed config document: `${ENV}` interpolation, schema, cross-checks. */
export function resolveConfig(raw: unknown, env: Readonly<Record<string, string | undefined>> = process.env, source = 'config', baseDir?: string): Config {
  // A secret written in the file is refused as written, before `${VARIABLE}`s are replaced.
  const problems: ConfigProblem[] = literalSecretProblems(raw);
  const interpolated = interpolateEnv(raw, env, problems);
  const parsed = ConfigSchema.safeParse(interpolated);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const path = formatPath(issue.path);
      // An empty value from a missing variable is already reported once, by name.
      if (problems.some((p) => p.path === path)) continue;
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) problems.push({ path, message: unknownKeyMessage(key, issue.path) });
      } else {
        problems.push(...issueProblems(issue, interpolated));
      }
    }
  }
  // Cross-checks read the document leniently, so they run (and report) even when the schema failed.
  problems.push(...crossCheck(interpolated as LenientConfig));
  if (problems.length > 0 || !parsed.success) throw new ConfigError(source, withoutReferencedValues(problems, raw, env));
  const config = baseDir === undefined ? parsed.data : anchorPaths(parsed.data, baseDir);
  registerConfigSecrets(config);
  const lakeProblem = lakeFolderProblem(config);
  if (lakeProblem) throw new ConfigError(source, [lakeProblem], LAKE_FOLDER_HINT);
  return config;
}

/**
 * Relative paths in a config file mean "beside this file": `status --config /srv/etl/venue-etl.config.json`
 * run from any folder finds the same warehouse. The result is absolute, so every message that
 * names a path shows where it looked.
 */
function anchorPaths(config: Config, baseDir: string): Config {
  const receiver =
    config.receiver.journalDir === undefined ? config.receiver : { ...config.receiver, journalDir: resolve(baseDir, config.receiver.journalDir) };
  return {
    ...config,
    warehouse: { ...config.warehouse, path: resolve(baseDir, config.warehouse.path) },
    parquet: { ...config.parquet, dir: isS3Target(config.parquet.dir) ? config.parquet.dir : resolve(baseDir, config.parquet.dir) },
    receiver,
  };
}

/** The folder relative paths in the config file at `path` are resolved against. */
export function configFolder(path: string): string {
  return dirname(resolve(path));
}

/**
 * A message may quote the value it refuses (`unknown time zone "…"`). When that value came from
 * an environment variable it may be a secret in the wrong key: the message names the variable.
 */
function withoutReferencedValues(problems: readonly ConfigProblem[], raw: unknown, env: Readonly<Record<string, string | undefined>>): ConfigProblem[] {
  const values = [...referencedValues(raw, env)].sort(([a], [b]) => b.length - a.length);
  return problems.map((problem) => ({
    ...problem,
    message: values.reduce((message, [value, name]) => message.split(value).join(`\${${name}}`), problem.message),
  }));
}

/** The parts of an unvalidated document the cross-checks look at; anything may be missing. */
interface LenientConfig {
  readonly endpoints?: unknown;
  readonly sync?: { readonly streams?: unknown };
  readonly schedule?: { readonly timezone?: unknown; readonly jobs?: unknown };
  readonly parquet?: { readonly dir?: unknown };
}

const strings = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** Checks that need more than one key or a library: streams, endpoint rows, cron expressions, time zone. */
function crossCheck(config: LenientConfig): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  const endpoints = strings(config.endpoints).filter(
    (row): row is { stream: string; path: string; scope: string } =>
      typeof row === 'object' &&
      row !== null &&
      typeof (row as { stream?: unknown }).stream === 'string' &&
      typeof (row as { path?: unknown }).path === 'string',
  );
  const known = new Set<string>([...BUILTIN_STREAMS, ...endpoints.map((e) => e.stream)]);
  strings(config.sync?.streams).forEach((stream, index) => {
    if (typeof stream === 'string' && !known.has(stream)) {
      problems.push({
        path: `sync.streams[${index}]`,
        message: `unknown stream "${stream}"${didYouMean(stream, [...known])} (known: ${[...known].join(', ')})`,
      });
    }
  });
  endpoints.forEach((row, index) => {
    if (BUILTIN_STREAMS.includes(row.stream)) {
      problems.push({ path: `endpoints[${index}].stream`, message: `"${row.stream}" is a built-in stream` });
    }
    const placeholder = row.scope === 'venue' ? '{venue_id}' : '{project_id}';
    if (!row.path.includes(placeholder)) {
      problems.push({ path: `endpoints[${index}].path`, message: `must contain ${placeholder} for scope "${row.scope}"` });
    }
  });
  const dir = config.parquet?.dir;
  if (typeof dir === 'string' && isS3Target(dir)) {
    const parsed = parseS3Target(dir);
    if ('problem' in parsed) problems.push({ path: 'parquet.dir', message: parsed.problem });
  }
  const timezone = config.schedule?.timezone;
  if (typeof timezone === 'string' && !isTimeZone(timezone)) {
    problems.push({ path: 'schedule.timezone', message: `unknown time zone "${timezone}" (use an IANA name such as UTC or Europe/Warsaw)` });
  }
  const jobs = config.schedule?.jobs;
  for (const [job, expression] of Object.entries(typeof jobs === 'object' && jobs !== null ? jobs : {})) {
    if (typeof expression === 'string' && !cron.validate(expression)) {
      problems.push({ path: `schedule.jobs.${job}`, message: `"${expression}" is not a valid cron expression` });
    }
  }
  return problems;
}

/** Reads, interpolates and validates a config file; every problem is reported at once (exit 2). */
export function loadConfigFile(path: string, env: Readonly<Record<string, string | undefined>> = process.env): Config {
  return resolveConfig(readConfigDocument(path), env, resolve(path), configFolder(path));
}

/**
 * What `command` reads of a config file, validated, and what it needs (command-needs.ts): the
 * blocks it does not read are set aside unread, so their `${VARIABLE}`s need not be set.
 */
export function loadConfigFor(command: ConfigCommand, path: string, env: Readonly<Record<string, string | undefined>> = process.env): Config {
  return resolveConfigFor(command, readConfigDocument(path), env, resolve(path), configFolder(path));
}

export function resolveConfigFor(
  command: ConfigCommand,
  raw: unknown,
  env: Readonly<Record<string, string | undefined>> = process.env,
  source = 'config',
  baseDir?: string,
): Config {
  const written = writtenMistakesElsewhere(command, raw, env, source, baseDir);
  if (written.length > 0) throw new ConfigError(source, written);
  const config = resolveConfig(withoutKeys(raw, unreadKeys(command, raw)), env, source, baseDir);
  const problems = commandProblems(command, config);
  if (problems.length > 0)
    throw new ConfigError(source, problems, `\`venue-etl ${command}\` needs these keys; \`venue-etl config\` lists what each command needs.`);
  return config;
}

/** The whole config file as `venue-etl config` checks it: every block any command reads (a switched-off part's credential is read by none). */
export function loadWholeConfigFile(path: string, env: Readonly<Record<string, string | undefined>> = process.env): { raw: unknown; config: Config } {
  const raw = readConfigDocument(path);
  try {
    return { raw, config: resolveWholeConfig(raw, env, resolve(path), configFolder(path)) };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    // Each problem says which commands read the key: a variable only `serve` needs is named so.
    throw new ConfigError(
      resolve(path),
      error.problems.map((problem) => withReaders(problem, raw)),
      error.hint,
    );
  }
}

/** A document as every command together reads it (`init` checks the config it writes so). */
export function resolveWholeConfig(raw: unknown, env: Readonly<Record<string, string | undefined>> = process.env, source = 'config', baseDir?: string): Config {
  return resolveConfig(withoutKeys(raw, unreadKeys(undefined, raw)), env, source, baseDir);
}

function withReaders(problem: ConfigProblem, raw: unknown): ConfigProblem {
  const readers = CONFIG_COMMANDS.filter((command) => reads(command, problem.path, raw));
  if (readers.length === CONFIG_COMMANDS.length || readers.length === 0) return problem;
  return { ...problem, message: `${problem.message} (read by ${readers.join(', ')})` };
}

/**
 * Blocks that only some commands read: the API (sync, backfill, serve), the receiver and the
 * schedule (serve), the webhooks (the commands that run jobs). They hold the secrets, referenced as `${VARIABLE}`s an analyst sharing the
 * operator's config does not have.
 */
export const OPTIONAL_BLOCKS = ['api', 'receiver', 'schedule', 'notify'] as const;
export type OptionalBlock = (typeof OPTIONAL_BLOCKS)[number];

/** The config of a command that reads the warehouse and the Parquet export only. */
export type ReadSideConfig = Omit<Config, OptionalBlock>;

/**
 * The config for the read-side commands (sql, report, check, status, export): the blocks they do
 * not read are set aside unread — their `${VARIABLE}`s are not resolved, so a missing API token
 * is no error here (a command that needs it still reports it, by name). A missing variable in a
 * block they do read (e.g. warehouse.path) is reported as ever.
 */
export function loadReadSideConfigFile(path: string, env: Readonly<Record<string, string | undefined>> = process.env): ReadSideConfig {
  return resolveReadSideConfig(readConfigDocument(path), env, resolve(path), configFolder(path));
}

export function resolveReadSideConfig(
  raw: unknown,
  env: Readonly<Record<string, string | undefined>> = process.env,
  source = 'config',
  baseDir?: string,
): ReadSideConfig {
  const {
    api: _api,
    receiver: _receiver,
    schedule: _schedule,
    notify: _notify,
    ...config
  } = resolveConfig(withoutKeys(raw, unreadKeys('sql', raw)), env, source, baseDir);
  return config;
}

/**
 * The config without its credentials (`api`, `receiver.authorization`, `dashboard.authorization`);
 * validated as ever otherwise. A command that touches only local files (`merge-events`, `reset`)
 * reads it, so a cron job running it needs neither the API token nor the receiver credential.
 */
export function loadCredentialFreeConfigFile(path: string, env: Readonly<Record<string, string | undefined>> = process.env): Config {
  const raw = readConfigDocument(path);
  return resolveConfig(withoutKeys(raw, unreadKeys('merge-events', raw)), env, resolve(path), configFolder(path));
}

/** `raw` with the given top-level or `block.key` entries removed (anything else is left to the schema). */
/**
 * One validation for every command: a mistake written in the file (a bad cron expression, a
 * credential too short) is refused by every command, also in a block this one does not read;
 * only a `${VARIABLE}` there may be left unset (docs/configuration.md, "What each command reads").
 */
function writtenMistakesElsewhere(
  command: ConfigCommand,
  raw: unknown,
  env: Readonly<Record<string, string | undefined>>,
  source: string,
  baseDir: string | undefined,
): ConfigProblem[] {
  try {
    resolveConfig(raw, env, source, baseDir);
    return [];
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return error.problems.filter((problem) => !reads(command, problem.path, raw) && !namesVariable(valueAt(raw, problem.path)));
  }
}

/** The value at a problem's path (`receiver.authorization`, `notify.webhooks[0].url`), if any. */
function valueAt(raw: unknown, path: string): unknown {
  let value = raw;
  for (const segment of path.split(/\.|\[|\]\.?/).filter((part) => part !== '')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

function namesVariable(value: unknown): boolean {
  return typeof value === 'string' ? /\$\{[A-Za-z_][A-Za-z0-9_]*\}/.test(value) : JSON.stringify(value ?? null).includes('${');
}

function withoutKeys(raw: unknown, keys: readonly string[]): unknown {
  if (!isPlainObject(raw)) return raw;
  const copy: Record<string, unknown> = { ...raw };
  for (const key of keys) {
    const [block, inner] = key.split('.');
    if (block === undefined) continue;
    if (inner === undefined) delete copy[block];
    else if (isPlainObject(copy[block])) {
      const { [inner]: _dropped, ...rest } = copy[block];
      copy[block] = rest;
    }
  }
  return copy;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parsed JSON of a config file (exit 2 when it cannot be read or is not JSON). */
function readConfigDocument(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = codeOf(error);
    throw new EtlError('VENUE_ETL_CONFIG_MISSING', `cannot read config file ${resolve(path)} (${code ?? 'error'})`, {
      hint: 'Pass --config PATH, or copy config.example.json to venue-etl.config.json and fill in api.baseUrl, api.token and scope. `venue-etl demo` needs no config.',
      cause: error,
    });
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      resolve(path),
      [{ path: '(root)', message: `is not valid JSON at ${describeJsonSyntaxError(text, error)}` }],
      'Fix the JSON at that line and column (no trailing commas, keys in double quotes; comments go in "//" keys).',
    );
  }
}

/**
 * The commands that call the API need `api.baseUrl` and `api.token`; the others (sql, report,
 * check, status, export) work from a config that only names the warehouse.
 */
export function requireApi(config: Config, source = 'config'): ApiReadyConfig {
  if (config.api === undefined) {
    throw new ConfigError(source, [
      { path: 'api.baseUrl', message: 'is required for this command' },
      { path: 'api.token', message: 'is required for this command (e.g. "${VENUE_API_TOKEN}")' },
    ]);
  }
  return config as ApiReadyConfig;
}
