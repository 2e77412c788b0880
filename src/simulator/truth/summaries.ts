import { averageRate, combineUnique } from '../metrics/counting.js';
import { LOGIN_METHODS } from '../metrics/venue-profile.js';
import type { DayValues } from '../metrics/day-values.js';
import type { SummaryStream } from './streams.js';

const total = (days: readonly DayValues[], read: (d: DayValues) => number): number => days.reduce((acc, d) => acc + read(d), 0);
const unique = (days: readonly DayValues[], read: (d: DayValues) => number): number => combineUnique(days.map(read));

/**
 * Attributes of a summary resource over the given days, in the order of docs/api.md §2.1. Additive
 * counts are the sums of the daily series; unique counts are combined and capped by their totals.
 */
export function summaryOf(stream: SummaryStream, days: readonly DayValues[]): Readonly<Record<string, unknown>> {
  switch (stream) {
    case 'venue-devices-summary': {
      const detected = total(days, (d) => d.detected);
      const authenticated = total(days, (d) => d.authenticated);
      const uniqueDetected = Math.min(
        detected,
        unique(days, (d) => d.uniqueDetected),
      );
      const uniqueAuthenticated = Math.min(
        authenticated,
        uniqueDetected,
        unique(days, (d) => d.uniqueAuthenticated),
      );
      return { detected, 'unique-detected': uniqueDetected, 'unique-authenticated': uniqueAuthenticated, authenticated };
    }
    case 'venue-users-login-methods':
      return Object.fromEntries(LOGIN_METHODS.map((method, i) => [method, total(days, (d) => d.loginMethods[i] as number)]));
    case 'venue-users-status':
      // Accounts created by an e-mail login in the range: confirmed ones are active.
      return {
        inactive: total(days, (d) => d.newEmailUsers - d.confirmedUsers),
        active: total(days, (d) => d.confirmedUsers),
      };
    case 'venue-users-summary': {
      const logins = total(days, (d) => d.logins);
      const uniqueLogins = Math.min(
        logins,
        unique(days, (d) => d.uniqueLogins),
      );
      return {
        logins,
        'unique-logins': uniqueLogins,
        'confirmed-users': total(days, (d) => d.confirmedUsers),
        'returning-users': Math.min(
          uniqueLogins,
          unique(days, (d) => d.returningUsers),
        ),
      };
    }
    case 'rating-summary': {
      const byValue = [0, 1, 2, 3, 4].map((i) => total(days, (d) => d.ratesByValue[i] as number));
      return {
        rates_count: total(days, (d) => d.ratesCount),
        // The spec types average_rate as a number: 0 stands for "no rates in the range".
        average_rate: averageRate(byValue) ?? 0,
        rates_per_value: byValue.map((count, i) => [i + 1, count]),
      };
    }
  }
}

export interface RatingStatistics {
  readonly 'requests-commented': number;
  readonly 'requests-sent': number;
  readonly 'requests-opened': number;
  readonly 'requests-rated': number;
}

/** Rating e-mail funnel over the days; `requests-rated` equals the rating summary's rates_count. */
export function ratingStatisticsOf(days: readonly DayValues[]): RatingStatistics {
  return {
    'requests-commented': total(days, (d) => d.requestsCommented),
    'requests-sent': total(days, (d) => d.requestsSent),
    'requests-opened': total(days, (d) => d.requestsOpened),
    'requests-rated': total(days, (d) => d.requestsRated),
  };
}
