import { mix, unit } from '../hash.js';
import { combineUnique, shareOf, splitByWeights } from './counting.js';
import { hoursOf, type HourValues } from './hour-values.js';
import type { VenueProfile } from './venue-profile.js';

/**
 * One venue, one day. Additive counts are sums of the day's hours, so hourly points always add
 * up to the daily point; unique counts are combined, never summed. The hours themselves are not
 * kept: days are cached, and only one-day ranges need them (`hoursOf`). The HourValues fields
 * hold the day's totals.
 */
export interface DayValues extends HourValues {
  readonly day: number;
  /** Logins per method (LOGIN_METHODS order); sums to `logins`. */
  readonly loginMethods: readonly number[];
  /** New e-mail accounts of the day, and how many of them confirmed the address. */
  readonly newEmailUsers: number;
  readonly confirmedUsers: number;
  readonly returningUsers: number;
  /** Rating e-mails: sent ≥ opened ≥ rated (= ratesCount) ≥ commented. */
  readonly requestsSent: number;
  readonly requestsOpened: number;
  readonly requestsRated: number;
  readonly requestsCommented: number;
}

const Draw = { MethodJitter: 101, EmailSignups: 102, Confirm: 103, Returning: 104, Opened: 105, Sent: 106, Commented: 107 } as const;

export function dayValues(profile: VenueProfile, day: number, revision: number): DayValues {
  const hours = hoursOf(profile, day, revision);
  const sum = (pick: (h: HourValues) => number): number => hours.reduce((acc, h) => acc + pick(h), 0);
  const u = (draw: number, extra = 0): number => unit(mix(profile.key, day, revision, draw, extra));

  const detected = sum((h) => h.detected);
  const authenticated = sum((h) => h.authenticated);
  const uniqueDetected = Math.min(detected, combineUnique(hours.map((h) => h.uniqueDetected)));
  const uniqueAuthenticated = Math.min(uniqueDetected, authenticated, combineUnique(hours.map((h) => h.uniqueAuthenticated)));
  const logins = sum((h) => h.logins);
  const uniqueLogins = Math.min(logins, combineUnique(hours.map((h) => h.uniqueLogins)));
  const ratesByValue = [0, 1, 2, 3, 4].map((i) => sum((h) => h.ratesByValue[i] as number));
  const ratesCount = sum((h) => h.ratesCount);

  const loginMethods = splitByWeights(
    logins,
    profile.methodWeights.map((w, i) => w * (0.7 + 0.6 * u(Draw.MethodJitter, i))),
  );
  const newEmailUsers = shareOf(loginMethods[0] as number, profile.emailSignupShare, u(Draw.EmailSignups));
  const confirmedUsers = shareOf(newEmailUsers, profile.confirmRate, u(Draw.Confirm));
  const returningUsers = shareOf(uniqueLogins, profile.returningShare, u(Draw.Returning));

  const requestsRated = ratesCount;
  const requestsOpened = requestsRated + Math.floor((requestsRated + logins * 0.02) * profile.openExtra + u(Draw.Opened));
  const requestsSent = requestsOpened + Math.floor(requestsOpened * profile.sendExtra + u(Draw.Sent));
  const requestsCommented = shareOf(requestsRated, profile.commentShare, u(Draw.Commented));

  return {
    day,
    detected,
    uniqueDetected,
    authenticated,
    uniqueAuthenticated,
    logins,
    uniqueLogins,
    embeds: sum((h) => h.embeds),
    ratesCount,
    ratesByValue,
    loginMethods,
    newEmailUsers,
    confirmedUsers,
    returningUsers,
    requestsSent,
    requestsOpened,
    requestsRated,
    requestsCommented,
  };
}
