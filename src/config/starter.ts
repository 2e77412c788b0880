import type { VenueEntry } from './venue-entries.js';

/**
 * The starter config `venue-etl init` writes and `venue-etl simulate --write-config` prints: the
 * keys a first sync needs, each with a `//` comment, and the rest left to their defaults
 * (config.example.json documents every key).
 */
export interface StarterValues {
  readonly baseUrl: string;
  /** Written as is: `${VENUE_API_TOKEN}` for a real API, the literal token for the local simulator. */
  readonly token: string;
  /** Plain ids, or `{id, name}` where the name is known (the simulator's world has names). */
  readonly venues: readonly VenueEntry[];
  readonly projects: readonly string[];
  /** The `//token` comment, when the token is not read from the environment. */
  readonly tokenNote?: string;
}

/** The environment variable the starter config reads the API token from. */
export const TOKEN_VARIABLE = 'VENUE_API_TOKEN';
/** The environment variable the starter config reads the receiver's credential from. */
export const RECEIVER_VARIABLE = 'VENUE_RECEIVER_AUTHORIZATION';

export function starterConfig(values: StarterValues, { comments = true } = {}): Record<string, unknown> {
  const note = (text: string): Record<string, string> => (comments ? { '//': text } : {});
  const keyNote = (key: string, text: string): Record<string, string> => (comments ? { [`//${key}`]: text } : {});
  return {
    ...note(
      "venue-etl configuration. Keys starting with // are comments; ${NAME} is replaced by the environment variable NAME. config.example.json documents every key. Relative paths are resolved against this file's folder.",
    ),
    api: {
      ...keyNote('baseUrl', 'Base address of the venue API.'),
      baseUrl: values.baseUrl,
      ...keyNote('token', values.tokenNote ?? `Bearer token. Keep it out of the file: export ${TOKEN_VARIABLE}=... (see .env.example).`),
      token: values.token,
    },
    scope: {
      ...keyNote(
        'venues',
        'Venue ids (UUID) whose statistics and roles are extracted. An entry may be {"id": "<UUID>", "name": "<name>"}: reports, status and the dashboard show the name, and --venues takes it.',
      ),
      venues: [...values.venues],
      ...keyNote('projects', 'Project ids (UUID) whose project roles are extracted.'),
      projects: [...values.projects],
    },
    warehouse: {
      ...keyNote('path', 'DuckDB file the rows are loaded into.'),
      path: 'data/warehouse.duckdb',
    },
    parquet: {
      ...keyNote('dir', 'Where venue-etl export writes its Parquet files.'),
      dir: 'data/parquet',
    },
    // Written disabled: `sync` and the other batch commands never read it, and `serve` needs its
    // credential only once it is on (docs/configuration.md, "What each command reads").
    receiver: {
      ...note(
        `The event receiver inside venue-etl serve: the platform POSTs its upsert events to http://HOST:PORT/users/ (docs/receiver.md). Off until enabled is true; then ${RECEIVER_VARIABLE} must be set.`,
      ),
      ...keyNote('enabled', 'true to run the receiver in venue-etl serve. Only serve reads this block.'),
      enabled: false,
      ...keyNote('host', 'Address to listen on; 0.0.0.0 to accept the platform from other hosts.'),
      host: '127.0.0.1',
      ...keyNote('port', 'Port the platform sends to.'),
      port: 8787,
      ...keyNote(
        'authorization',
        `The complete Authorization header value the platform sends (e.g. "Basic ..."); read only while enabled. Keep it out of the file: export ${RECEIVER_VARIABLE}=... (see .env.example).`,
      ),
      authorization: `\${${RECEIVER_VARIABLE}}`,
    },
  };
}

/** The `.env.example` beside a starter config: the variables it reads, none of them set. */
export function starterEnvExample(): string {
  return [
    '# Variables venue-etl reads from its environment (it does not read this file): copy it to .env,',
    '# fill it in, keep .env out of version control, and load it with `set -a; . ./.env; set +a`.',
    '# API token for api.token ("${VENUE_API_TOKEN}" in venue-etl.config.json).',
    `${TOKEN_VARIABLE}=`,
    '# Complete Authorization header value the platform sends to the event receiver (receiver.authorization);',
    '# read by venue-etl serve only, once receiver.enabled is true.',
    `${RECEIVER_VARIABLE}=`,
    '',
  ].join('\n');
}
