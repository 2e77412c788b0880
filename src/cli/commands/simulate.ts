import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { starterConfig, type StarterValues } from '../../config/index.js';
import { ExitCode, UsageError } from '../../errors/index.js';
import { registerSecret } from '../../log/index.js';
import {
  FAULT_SPEC_GRAMMAR,
  FaultSpecError,
  RATE_LIMIT_HEADER_STYLES,
  sendEvents,
  startSimulator,
  toFaultSpec,
  type FaultSpec,
  type RateLimitHeaderStyle,
} from '../../simulator/index.js';
import { dateOption, intOption, stringOption } from '../args.js';
import { commandLogger } from '../context.js';
import type { Command, CommandIo, ParsedArgs } from '../command.js';

export const simulateCommand: Command = {
  name: 'simulate',
  summary: 'Serve the built-in simulator of the venue API until stopped; optionally send upsert events to a receiver.',
  noConfig: true,
  options: {
    port: { type: 'string', description: 'port to listen on (default 0: a free port)', valueName: 'N' },
    host: { type: 'string', description: 'address to listen on (default 127.0.0.1)', valueName: 'HOST' },
    seed: { type: 'string', description: 'seed of the simulated world (default 1)', valueName: 'N' },
    venues: { type: 'string', description: 'number of venues (default 5)', valueName: 'N' },
    days: { type: 'string', description: 'days of history (default 90)', valueName: 'N' },
    today: { type: 'string', description: 'the simulated current date (default: today, UTC)', valueName: 'DATE' },
    'latency-ms': { type: 'string', description: 'delay added to every response (default 0)', valueName: 'N' },
    'rate-limit': { type: 'string', description: 'requests per second allowed per token; beyond it 429 + Retry-After (default none)', valueName: 'N' },
    'rate-limit-burst': { type: 'string', description: 'requests the rate limit lets through at once (default N/5, at least 1)', valueName: 'N' },
    'rate-limit-headers': {
      type: 'string',
      description: 'tell the rate limit in every answer: ietf (RateLimit-Policy, RateLimit) or x (X-RateLimit-*)',
      valueName: 'STYLE',
    },
    faults: { type: 'string', description: 'seeded faults, e.g. 429=0.1,500=0.05,reset=0.02@venue-roles', valueName: 'SPEC' },
    token: { type: 'string', description: 'bearer token the API requires (default sim-token)', valueName: 'T' },
    'revise-recent-days': { type: 'string', description: 'late data: days before today that POST /__sim/revise changes', valueName: 'N' },
    'send-events-to': { type: 'string', description: 'receiver base URL to send upsert events to', valueName: 'URL' },
    'events-auth': { type: 'string', description: 'complete Authorization header value for the events', valueName: 'VALUE' },
    events: { type: 'string', description: 'number of distinct events to send (default 20)', valueName: 'N' },
    'write-config': { type: 'string', description: 'write a config for venue-etl sync against this simulator to PATH (not overwritten)', valueName: 'PATH' },
  },
  async run(args, io) {
    const faults = faultsOption(args);
    const events = eventsOptions(args);
    const logger = commandLogger(args, io);
    const token = stringOption(args, 'token');
    const port = intOption(args, 'port', { min: 0, max: 65_535 });
    const host = stringOption(args, 'host');
    const seed = intOption(args, 'seed');
    const venues = intOption(args, 'venues', { min: 1, max: 10_000 });
    const days = intOption(args, 'days', { min: 1, max: 36_600 });
    const today = dateOption(args, 'today');
    const latencyMs = intOption(args, 'latency-ms', { min: 0, max: 600_000 });
    const rateLimit = intOption(args, 'rate-limit', { min: 1, max: 1_000_000 });
    const rateLimitBurst = intOption(args, 'rate-limit-burst', { min: 1, max: 1_000_000 });
    if (rateLimitBurst !== undefined && rateLimit === undefined) throw new UsageError('--rate-limit-burst needs --rate-limit N');
    const rateLimitHeaders = rateLimitHeadersOption(args, rateLimit);
    const reviseRecentDays = intOption(args, 'revise-recent-days', { min: 0, max: 36_600 });
    const configOut = stringOption(args, 'write-config');
    if (configOut !== undefined && existsSync(configOut)) {
      throw new UsageError(`--write-config: ${resolve(configOut)} already exists; it is not overwritten`, 'remove it or give another path');
    }

    const simulator = await startSimulator({
      ...(port === undefined ? {} : { port }),
      ...(host === undefined ? {} : { host }),
      ...(seed === undefined ? {} : { seed }),
      ...(venues === undefined ? {} : { venues }),
      ...(days === undefined ? {} : { days }),
      ...(today === undefined ? {} : { today }),
      ...(latencyMs === undefined ? {} : { latencyMs }),
      ...(rateLimit === undefined ? {} : { rateLimit }),
      ...(rateLimitBurst === undefined ? {} : { rateLimitBurst }),
      ...(rateLimitHeaders === undefined ? {} : { rateLimitHeaders }),
      ...(token === undefined ? {} : { token }),
      ...(reviseRecentDays === undefined ? {} : { reviseRecentDays }),
      ...(faults === undefined ? {} : { faults }),
      onRequest: (r) => logger.debug({ method: r.method, path: r.path, query: r.query, status: r.status, fault: r.fault }, 'request'),
    });
    // The URL first and alone on its line: scripts and tests read it from there.
    io.stdout.write(
      [
        simulator.url,
        `token: ${simulator.token}`,
        `projects: ${simulator.world.projects.map((p) => p.id).join(',')}`,
        `venues: ${simulator.world.venues.map((v) => v.id).join(',')}`,
        '',
      ].join('\n'),
    );
    const starter: StarterValues = {
      baseUrl: simulator.url,
      token: simulator.token,
      tokenNote: 'The local simulator\'s token (venue-etl simulate --token). A real API token stays out of the file: "${VENUE_API_TOKEN}".',
      // Named: reports, status and the dashboard then show the world's names, and --venues takes them.
      venues: simulator.world.venues.map((v) => ({ id: v.id, name: v.name })),
      projects: simulator.world.projects.map((p) => p.id),
    };
    if (configOut === undefined) {
      io.stdout.write(
        `config for venue-etl sync against this simulator (or: --write-config PATH):\n${JSON.stringify(starterConfig(starter, { comments: false }), null, 2)}\n`,
      );
    } else {
      try {
        writeFileSync(configOut, `${JSON.stringify(starterConfig(starter), null, 2)}\n`, { flag: 'wx' });
      } catch (error) {
        await simulator.close();
        throw error;
      }
      io.stdout.write(`config written to ${resolve(configOut)}: venue-etl sync --config ${configOut}\n`);
    }
    logger.info({ url: simulator.url, today: simulator.world.today, venues: simulator.world.venues.length }, 'simulator listening');

    let exitCode: ExitCode = ExitCode.ok;
    if (events) {
      const { stats } = await sendEvents({ ...events, world: simulator.world, signal: io.signal });
      io.stdout.write(`events: sent ${stats.sent}, acknowledged ${stats.acknowledged}, retried ${stats.retried}, failed ${stats.failed}\n`);
      if (stats.failed > 0) exitCode = ExitCode.failed;
    }
    await stopped(io);
    await simulator.close();
    logger.info('simulator stopped');
    return exitCode;
  },
};

function rateLimitHeadersOption(args: ParsedArgs, rateLimit: number | undefined): RateLimitHeaderStyle | undefined {
  const style = stringOption(args, 'rate-limit-headers');
  if (style === undefined) return undefined;
  if (rateLimit === undefined) throw new UsageError('--rate-limit-headers needs --rate-limit N');
  const styles: readonly string[] = RATE_LIMIT_HEADER_STYLES;
  if (!styles.includes(style)) throw new UsageError(`--rate-limit-headers must be ${RATE_LIMIT_HEADER_STYLES.join(' or ')}, got "${style}"`);
  return style as RateLimitHeaderStyle;
}

function faultsOption(args: ParsedArgs): FaultSpec | undefined {
  const text = stringOption(args, 'faults');
  if (text === undefined) return undefined;
  try {
    return toFaultSpec(text);
  } catch (error) {
    if (error instanceof FaultSpecError) throw new UsageError(`--faults: ${error.problems.join('; ')}`, FAULT_SPEC_GRAMMAR);
    throw error;
  }
}

function eventsOptions(args: ParsedArgs): { receiverBaseUrl: string; authorization: string; count?: number } | undefined {
  const receiverBaseUrl = stringOption(args, 'send-events-to');
  const authorization = stringOption(args, 'events-auth');
  const count = intOption(args, 'events', { min: 1, max: 1_000_000 });
  if (receiverBaseUrl === undefined) {
    if (authorization !== undefined || count !== undefined) throw new UsageError('--events-auth and --events need --send-events-to URL');
    return undefined;
  }
  if (!/^https?:\/\/[^/]+/.test(receiverBaseUrl)) throw new UsageError(`--send-events-to must be an http(s) URL, got "${receiverBaseUrl}"`);
  if (authorization === undefined)
    throw new UsageError('--send-events-to needs --events-auth VALUE (the complete Authorization header value)', 'e.g. --events-auth "Basic dXNlcjpwYXNz"');
  registerSecret(authorization);
  return { receiverBaseUrl, authorization, ...(count === undefined ? {} : { count }) };
}

/** Resolves on SIGINT/SIGTERM (the CLI aborts `io.signal`). */
function stopped(io: CommandIo): Promise<void> {
  return new Promise((resolve) => {
    if (io.signal.aborted) resolve();
    else io.signal.addEventListener('abort', () => resolve(), { once: true });
  });
}
