import type { Logger } from '../log/index.js';
import { addDays, minDate, todayUtc } from '../calendar/index.js';

/**
 * Skews beyond this are reported loudly. An HTTP `Date` has one-second resolution and is
 * stamped when the answer is made, up to api.timeoutMs (30 s by default) before it is read;
 * NTP-synced clocks agree within milliseconds. Five minutes is well above that noise.
 */
export const CLOCK_SKEW_WARN_MS = 5 * 60_000;

/** The clocks a run goes by: the machine's, and the API's from the `Date` header of its first answer. */
export interface RunClock {
  /** The machine's clock when the API answered. */
  readonly machine: Date;
  /** The API's clock, when it sent a usable `Date` header. */
  readonly api?: Date;
  /** Machine minus API, ms (positive: the machine is ahead). */
  readonly skewMs?: number;
  /** The earlier of the two clocks' dates (UTC): the API has not begun any later day. */
  readonly today: string;
  /**
   * The last day that has ended for the API and for the machine: `today` − 1. No cursor passes
   * it, whatever the machine's clock says (a day that has not ended at the API is incomplete).
   */
  readonly lastCompleteDay: string;
  /** Set when the clocks disagree by more than CLOCK_SKEW_WARN_MS, or the API's clock is unknown. */
  readonly warning?: { readonly code: 'VENUE_CLOCK_SKEW' | 'VENUE_CLOCK_UNKNOWN'; readonly message: string };
}

export function runClock(machine: Date, apiDateHeader: string | undefined): RunClock {
  const machineToday = todayUtc(machine);
  const apiMs = apiDateHeader === undefined ? Number.NaN : Date.parse(apiDateHeader);
  if (Number.isNaN(apiMs)) {
    return {
      machine,
      today: machineToday,
      lastCompleteDay: addDays(machineToday, -1),
      warning: {
        code: 'VENUE_CLOCK_UNKNOWN',
        message: `the API sent no usable Date header (${apiDateHeader === undefined ? 'none' : JSON.stringify(apiDateHeader)}): the machine's clock alone decides the last complete day (${addDays(machineToday, -1)}); if that clock is ahead, incomplete days are loaded as complete`,
      },
    };
  }
  const api = new Date(apiMs);
  const today = minDate(machineToday, todayUtc(api));
  const lastCompleteDay = addDays(today, -1);
  const skewMs = machine.getTime() - apiMs;
  const clock = { machine, api, skewMs, today, lastCompleteDay };
  if (Math.abs(skewMs) <= CLOCK_SKEW_WARN_MS) return clock;
  const consequence =
    skewMs > 0
      ? `days up to ${lastCompleteDay} (the API's yesterday) are loaded, not up to the machine's yesterday`
      : `days up to ${lastCompleteDay} (the machine's yesterday) are loaded; the next run with a right clock loads the rest`;
  return {
    ...clock,
    warning: {
      code: 'VENUE_CLOCK_SKEW',
      message: `the machine's clock is ${duration(Math.abs(skewMs))} ${skewMs > 0 ? 'ahead of' : 'behind'} the API's (machine ${machine.toISOString()}, API ${api.toISOString()}): ${consequence}. Set the machine's clock right (NTP).`,
    },
  };
}

/** What `sync_runs.detail.clock` records of a run's clocks. */
export function clockDetail(clock: RunClock): Record<string, unknown> {
  return {
    machine: clock.machine.toISOString(),
    api: clock.api?.toISOString() ?? null,
    skewSeconds: clock.skewMs === undefined ? null : Math.round(clock.skewMs / 1000),
    lastCompleteDay: clock.lastCompleteDay,
    ...(clock.warning ? { warning: clock.warning.code } : {}),
  };
}

/** Logs a clock warning (warn level, with its code); returns it for the run summary. */
export function reportClock(logger: Logger, clock: RunClock): string[] {
  if (!clock.warning) return [];
  logger.warn({ code: clock.warning.code, ...clockDetail(clock) }, clock.warning.message);
  return [`${clock.warning.code}: ${clock.warning.message}`];
}

function duration(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 120) return `${minutes} minutes`;
  const hours = ms / 3_600_000;
  return hours < 48 ? `${hours.toFixed(1)} hours` : `${(hours / 24).toFixed(1)} days`;
}
