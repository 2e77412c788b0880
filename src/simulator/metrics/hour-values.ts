import { mix, mixStep, unit } from '../hash.js';
import { dayOfWeek } from '../dates.js';
import { shareOf, uniqueOf } from './counting.js';
import type { VenueProfile } from './venue-profile.js';

/** The finest grain of the world: one venue, one hour. Daily values are built from these. */
export interface HourValues {
  readonly detected: number;
  readonly uniqueDetected: number;
  readonly authenticated: number;
  readonly uniqueAuthenticated: number;
  readonly logins: number;
  readonly uniqueLogins: number;
  readonly embeds: number;
  /** Counts of the rates 1..5 given in this hour. */
  readonly ratesByValue: readonly number[];
  readonly ratesCount: number;
}

// Guests come in the day and the evening, hardly at night.
const HOUR_WEIGHTS = [1, 0.5, 0.3, 0.2, 0.2, 0.4, 1, 2, 3.5, 4, 4.2, 4.8, 5.5, 5.2, 4.6, 4.4, 4.6, 5, 5.4, 5, 4, 3, 2, 1.4];
const HOUR_WEIGHT_SUM = HOUR_WEIGHTS.reduce((a, b) => a + b, 0);

const ZERO_HOUR: HourValues = {
  detected: 0,
  uniqueDetected: 0,
  authenticated: 0,
  uniqueAuthenticated: 0,
  logins: 0,
  uniqueLogins: 0,
  embeds: 0,
  ratesByValue: [0, 0, 0, 0, 0],
  ratesCount: 0,
};

// Labels of the independent draws of an hour (any distinct integers).
const Draw = {
  Detected: 1,
  Auth: 2,
  AuthJitter: 3,
  UniqueDetected: 4,
  UniqueAuth: 5,
  Logins: 6,
  UniqueLogins: 7,
  Embeds: 8,
  EmbedsJitter: 9,
  Rates: 10,
  RateValue: 11,
} as const;
type Draw = (typeof Draw)[keyof typeof Draw];

/** Values of one hour: a pure function of (profile, day, hour, revision). */
function hourValues(profile: VenueProfile, day: number, hour: number, revision: number): HourValues {
  if (day < profile.startDay) return ZERO_HOUR;
  const base = mix(profile.key, day, hour, revision);
  const u = (draw: Draw, extra = 0): number => unit(mixStep(mixStep(base, draw), extra));
  const weekday = dayOfWeek(day);
  const weekFactor = weekday === 0 || weekday === 6 ? 1.3 : 1;
  // A slow seasonal wave so that months differ.
  const season = 1 + 0.2 * Math.sin(day / 29 + (profile.key % 628) / 100);
  const expected = (profile.devicesPerDay * weekFactor * season * (HOUR_WEIGHTS[hour] as number)) / HOUR_WEIGHT_SUM;

  const detected = Math.floor(expected * (0.6 + 0.8 * u(Draw.Detected)) + u(Draw.Detected, 1));
  const authenticated = shareOf(detected, profile.authRate * (0.8 + 0.4 * u(Draw.AuthJitter)), u(Draw.Auth));
  const uniqueDetected = uniqueOf(detected, profile.uniqueDetectedRate, u(Draw.UniqueDetected));
  const uniqueAuthenticated = Math.min(uniqueDetected, uniqueOf(authenticated, profile.uniqueAuthRate, u(Draw.UniqueAuth)));
  const logins = Math.floor(authenticated * profile.loginsPerAuth + u(Draw.Logins));
  const uniqueLogins = uniqueOf(logins, profile.uniqueLoginRate, u(Draw.UniqueLogins));
  const embeds = Math.floor(logins * profile.embedsPerLogin * (0.7 + 0.6 * u(Draw.EmbedsJitter)) + u(Draw.Embeds));
  const ratesCount = shareOf(logins, profile.rateShare, u(Draw.Rates));
  const ratesByValue = [0, 0, 0, 0, 0];
  for (let i = 0; i < ratesCount; i += 1) ratesByValue[drawRate(profile.ratingWeights, u(Draw.RateValue, i))] += 1;
  return { detected, uniqueDetected, authenticated, uniqueAuthenticated, logins, uniqueLogins, embeds, ratesByValue, ratesCount };
}

/** The 24 hours of a day. */
export function hoursOf(profile: VenueProfile, day: number, revision: number): HourValues[] {
  return Array.from({ length: 24 }, (_, hour) => hourValues(profile, day, hour, revision));
}

/** Index 0..4 (rate 1..5) drawn from the venue's rating weights. */
function drawRate(weights: readonly number[], u: number): number {
  const total = weights.reduce((a, b) => a + b, 0);
  let acc = 0;
  for (let i = 0; i < weights.length; i += 1) {
    acc += (weights[i] as number) / total;
    if (u < acc) return i;
  }
  return weights.length - 1;
}
