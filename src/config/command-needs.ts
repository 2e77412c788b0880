import { referencedNames, type ConfigProblem } from './interpolate.js';
import type { Config } from './schema.js';

/** The blocks of a config file, in the order docs/configuration.md lists them. */
export const CONFIG_BLOCKS = [
  'api',
  'scope',
  'sync',
  'endpoints',
  'warehouse',
  'query',
  'parquet',
  'schedule',
  'receiver',
  'dashboard',
  'log',
  'notify',
  'metrics',
  'lineage',
  'freshness',
] as const;
export type ConfigBlock = (typeof CONFIG_BLOCKS)[number];

/** The commands that read a config file (demo, simulate, init and completion read none). */
export const CONFIG_COMMANDS = [
  'sync',
  'backfill',
  'serve',
  'jobs',
  'export',
  'sql',
  'report',
  'check',
  'status',
  'dashboard',
  'merge-events',
  'reset',
] as const;
export type ConfigCommand = (typeof CONFIG_COMMANDS)[number];

/**
 * What each command leaves unread: whole blocks, or `block.key`. What a command does not read is
 * set aside before `${VARIABLE}`s are replaced, so a variable only another command needs (the
 * receiver's credential for `sync`) is no error; the schema's defaults stand in for it.
 * docs/configuration.md, "What each command reads", is this table in prose.
 */
const UNREAD: Readonly<Record<ConfigCommand, readonly string[]>> = {
  sync: ['receiver', 'schedule', 'dashboard', 'query'],
  backfill: ['receiver', 'schedule', 'dashboard', 'query'],
  serve: ['query'],
  jobs: ['api', 'scope', 'sync', 'endpoints', 'query', 'parquet', 'receiver', 'dashboard', 'notify', 'metrics', 'lineage', 'freshness'],
  // The read side: the warehouse and the lake (the dashboard's own credential is serve's).
  export: ['api', 'receiver', 'schedule', 'notify', 'dashboard.authorization'],
  sql: ['api', 'receiver', 'schedule', 'notify', 'dashboard.authorization'],
  report: ['api', 'receiver', 'schedule', 'notify', 'dashboard.authorization'],
  check: ['api', 'receiver', 'schedule', 'notify', 'dashboard.authorization'],
  status: ['api', 'receiver', 'schedule', 'notify', 'dashboard.authorization'],
  dashboard: ['api', 'receiver', 'schedule', 'notify', 'dashboard.authorization'],
  // Local files only: the journal and the warehouse, no credential.
  'merge-events': ['api', 'receiver.authorization', 'dashboard.authorization'],
  reset: ['api', 'receiver.authorization', 'dashboard.authorization'],
};

/**
 * Credentials of a part that is off are read by nobody: a disabled receiver's (the starter
 * config writes one, disabled, with its `${VARIABLE}`) or a disabled live dashboard's.
 */
function switchedOff(raw: unknown): string[] {
  const doc = isPlainObject(raw) ? raw : {};
  const receiver = isPlainObject(doc.receiver) ? doc.receiver : {};
  const dashboard = isPlainObject(doc.dashboard) ? doc.dashboard : {};
  return [...(receiver.enabled === false ? ['receiver.authorization'] : []), ...(dashboard.enabled === true ? [] : ['dashboard.authorization'])];
}

/** The keys `command` leaves unread in this document; `undefined`: the `config` command, which reads what any command does. */
export function unreadKeys(command: ConfigCommand | undefined, raw: unknown): string[] {
  return [...(command === undefined ? [] : UNREAD[command]), ...switchedOff(raw)];
}

/** Whether `command` reads the value at `path` (e.g. `receiver.authorization`, `notify.webhooks[0].url`). */
export function reads(command: ConfigCommand, path: string, raw: unknown): boolean {
  const unread = unreadKeys(command, raw);
  const [block, key] = path.split(/[.[]/);
  return !unread.includes(block ?? '') && !unread.includes(`${block}.${key}`);
}

/** The blocks `command` reads, for docs and `venue-etl config`. */
export function blocksRead(command: ConfigCommand): ConfigBlock[] {
  return CONFIG_BLOCKS.filter((block) => !UNREAD[command].includes(block));
}

/**
 * What a command needs beyond what the schema checks: the API for the commands that call it;
 * for `serve`, the receiver's credential when the receiver is on and ports of its own for each
 * server it opens. `serve` checks them before it starts anything, `config` for every command.
 */
export function commandProblems(command: ConfigCommand, config: Config): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  if ((command === 'sync' || command === 'backfill' || command === 'serve') && config.api === undefined) {
    problems.push({ path: 'api.baseUrl', message: 'is required for this command' });
    problems.push({ path: 'api.token', message: 'is required for this command (e.g. "${VENUE_API_TOKEN}")' });
  }
  if (command !== 'serve') return problems;
  if (config.receiver.enabled && config.receiver.authorization === undefined) {
    problems.push({
      path: 'receiver.authorization',
      message: 'is required when receiver.enabled is true (the complete Authorization header value the platform sends); or set receiver.enabled to false',
    });
  }
  return [...problems, ...portProblems(config)];
}

/**
 * The receiver, the live dashboard and /metrics each listen on a port of their own: the
 * receiver's port is the one opened to the platform, and the page (every figure of the
 * warehouse) must not be reachable there.
 */
function portProblems(config: Config): ConfigProblem[] {
  const open = [
    ...(config.receiver.enabled ? [['receiver.port', config.receiver.port] as const] : []),
    ...(config.dashboard.enabled ? [['dashboard.port', config.dashboard.port] as const] : []),
    ...(config.metrics.enabled ? [['metrics.port', config.metrics.port] as const] : []),
  ].filter(([, port]) => port !== 0);
  return open.flatMap(([key, port], index) => {
    const taken = open.slice(0, index).find(([, other]) => other === port);
    if (taken === undefined) return [];
    const why = taken[0] === 'receiver.port' ? ": the receiver's port is the one the platform reaches" : '';
    return [{ path: key, message: `must differ from ${taken[0]} (${port})${why}` }];
  });
}

/** Per command, the `${VARIABLE}`s it needs set, each with the key that names it (`VENUE_API_TOKEN (api.token)`). */
export function variablesByCommand(raw: unknown): Map<ConfigCommand, string[]> {
  const references = referencedNames(raw);
  return new Map(
    CONFIG_COMMANDS.map((command) => [command, references.filter(({ path }) => reads(command, path, raw)).map(({ name, path }) => `${name} (${path})`)]),
  );
}

/**
 * The commands a config file is set up for: the API commands when it has an `api` block,
 * `serve` when it also has a block only serve reads (receiver, schedule, an enabled dashboard or
 * metrics), every other command always. `config` fails on what these need and notes the rest.
 */
export function commandsSetUp(raw: unknown): ConfigCommand[] {
  const doc = isPlainObject(raw) ? raw : {};
  const enabled = (block: string): boolean => isPlainObject(doc[block]) && (doc[block] as Record<string, unknown>).enabled === true;
  const api = isPlainObject(doc.api);
  const serve = api && (doc.receiver !== undefined || doc.schedule !== undefined || enabled('dashboard') || enabled('metrics'));
  return CONFIG_COMMANDS.filter((command) => {
    if (command === 'serve') return serve;
    return api || (command !== 'sync' && command !== 'backfill');
  });
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
