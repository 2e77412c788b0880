import { EtlError } from '../errors/index.js';
import { toFaultSpec } from './faults/fault-spec.js';
import { seedKey } from './hash.js';
import type { SimulatorControls } from './http/control.js';
import { RequestLog } from './http/request-log.js';
import { createRateLimiter, defaultBurst } from './http/rate-limit.js';
import { listen, type ServerDependencies } from './http/server.js';
import { resolveOptions, type ResolvedOptions, type SimulatorOptions } from './options.js';
import { createGroundTruth, type GroundTruth } from './truth/ground-truth.js';
import { RoleBook } from './world/role-book.js';
import { WorldIndex } from './world/world-index.js';
import { buildWorld } from './world/world.js';

/** A running simulator: its address and ground truth, plus the controls the HTTP endpoints drive. */
export interface Simulator extends SimulatorControls {
  /** Base URL without a trailing slash, e.g. `http://127.0.0.1:41234`. */
  readonly url: string;
  readonly token: string;
  /** What the endpoints serve right now (current revision and roles). */
  readonly truth: GroundTruth;
  /**
   * Resolves once every API request received so far has been answered and is in `requests`
   * (a `slow` answer is logged when its drip ends or its client hangs up): wait on it before
   * reading the log after a client went away.
   */
  settled(): Promise<void>;
  /** Closes the server and its open sockets at once. */
  close(): Promise<void>;
}

/** Starts a simulator of the venue API on `host:port` (default 127.0.0.1, a free port). */
export async function startSimulator(options: SimulatorOptions = {}): Promise<Simulator> {
  const config = resolveOptions(options);
  let faults = toFaultSpec(options.faults);
  let epoch = 0;
  const world = buildWorld(config);
  const index = new WorldIndex(world);
  const roles = new RoleBook(world);
  const truth = createGroundTruth({ index, roles, epoch: () => epoch, recentDays: config.reviseRecentDays });
  const log = new RequestLog();

  const controls: SimulatorControls = {
    world,
    get requests() {
      return log.list();
    },
    get faults() {
      return faults;
    },
    get revision() {
      return epoch;
    },
    clearRequests: () => log.clear(),
    revise() {
      if (config.reviseRecentDays === 0) {
        throw new EtlError('VENUE_SIM_REVISE', 'revise() needs reviseRecentDays (the days whose values may change)', {
          hint: 'start the simulator with reviseRecentDays: N (--revise-recent-days N)',
        });
      }
      epoch += 1;
    },
    mutateRoles: () => roles.mutate(),
    setFaults(spec) {
      faults = toFaultSpec(spec);
    },
  };

  const server = await listen(
    {
      truth,
      world,
      token: config.token,
      pageSizes: { defaultSize: config.defaultPageSize, maxSize: config.maxPageSize },
      seed: seedKey(config.seed),
      log,
      controls,
      latencyMs: config.latencyMs,
      ...rateLimitDependencies(config),
      clock: options.clock ?? (() => new Date()),
      ...(options.onRequest ? { onRequest: options.onRequest } : {}),
    },
    config.port,
    config.host,
  );

  return Object.defineProperties(controls, {
    url: { value: server.url, enumerable: true },
    token: { value: config.token, enumerable: true },
    truth: { value: truth, enumerable: true },
    settled: { value: () => server.settled(), enumerable: true },
    close: { value: () => server.close(), enumerable: true },
  }) as Simulator;
}

/** The token bucket, and how the answers tell it, when the options ask for a rate limit. */
function rateLimitDependencies(config: ResolvedOptions): Pick<ServerDependencies, 'rateLimiter' | 'rateLimitHeaders'> {
  if (config.rateLimit === undefined) return {};
  const settings = { ratePerSecond: config.rateLimit, burst: config.rateLimitBurst ?? defaultBurst(config.rateLimit) };
  const rateLimiter = createRateLimiter(settings);
  return config.rateLimitHeaders === undefined ? { rateLimiter } : { rateLimiter, rateLimitHeaders: { style: config.rateLimitHeaders, settings } };
}
