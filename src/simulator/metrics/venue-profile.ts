import { hashString, mix, seedKey, unit } from '../hash.js';

/** Login methods of `venue-users-login-methods`, in the order of docs/api.md §2.1. */
export const LOGIN_METHODS = ['email', 'phone', 'autologin', 'social-a', 'social-b', 'social-c', 'social-d'] as const;

/**
 * The character of one venue: how busy it is and how its guests behave. Drawn once from the
 * seed and the venue id; every daily and hourly value is noise around these.
 */
export interface VenueProfile {
  /** Mixed into every hash of this venue's values. */
  readonly key: number;
  /** Day number of the world's first day of activity. */
  readonly startDay: number;
  readonly devicesPerDay: number;
  readonly authRate: number;
  readonly uniqueDetectedRate: number;
  readonly uniqueAuthRate: number;
  readonly loginsPerAuth: number;
  readonly uniqueLoginRate: number;
  readonly embedsPerLogin: number;
  readonly rateShare: number;
  /** Weights of the rates 1..5. */
  readonly ratingWeights: readonly number[];
  readonly commentShare: number;
  readonly openExtra: number;
  readonly sendExtra: number;
  readonly emailSignupShare: number;
  readonly confirmRate: number;
  readonly returningShare: number;
  readonly methodWeights: readonly number[];
}

export function venueProfile(seed: number, venueId: string, startDay: number): VenueProfile {
  const key = mix(seedKey(seed), hashString(venueId));
  const u = (label: string): number => unit(mix(key, hashString(label)));
  const between = (label: string, low: number, high: number): number => low + (high - low) * u(label);
  // Better venues get more fives; every venue gets some of each rate.
  const quality = u('quality');
  return {
    key,
    startDay,
    devicesPerDay: between('size', 40, 600),
    authRate: between('auth-rate', 0.25, 0.65),
    uniqueDetectedRate: between('unique-detected-rate', 0.6, 0.95),
    uniqueAuthRate: between('unique-auth-rate', 0.6, 0.95),
    loginsPerAuth: between('logins-per-auth', 1.0, 1.4),
    uniqueLoginRate: between('unique-login-rate', 0.55, 0.9),
    embedsPerLogin: between('embeds-per-login', 0.3, 2.5),
    rateShare: between('rate-share', 0.02, 0.12),
    ratingWeights: [0.5 - 0.4 * quality, 0.6 - 0.4 * quality, 1, 1 + 1.5 * quality, 0.8 + 3 * quality],
    commentShare: between('comment-share', 0.1, 0.5),
    openExtra: between('open-extra', 0.2, 1.2),
    sendExtra: between('send-extra', 0.3, 2),
    emailSignupShare: between('email-signups', 0.3, 0.7),
    confirmRate: between('confirm-rate', 0.4, 0.9),
    returningShare: between('returning-share', 0.1, 0.5),
    methodWeights: LOGIN_METHODS.map((method, i) => (i < 3 ? 2 : 0.5) * (0.2 + u(`method-${method}`))),
  };
}
