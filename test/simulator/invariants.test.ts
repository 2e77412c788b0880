import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_METHODS, buildWorld, startSimulator, type SeriesPoint, type Simulator } from '../../src/simulator/index.js';
import { TODAY } from './helpers.js';

let sim: Simulator;
const FROM = '2026-01-01';
const TO = TODAY;
beforeAll(async () => {
  sim = await startSimulator({ seed: 5, venues: 6, days: 90, today: TODAY });
});
afterAll(() => sim.close());

const values = (points: readonly SeriesPoint[] | undefined): (number | null)[] => (points ?? []).map(([, v]) => v);
const sum = (points: readonly SeriesPoint[] | undefined): number => values(points).reduce<number>((a, v) => a + (v ?? 0), 0);

describe.each([0, 1, 2, 3, 4, 5])('venue %i', (index) => {
  const venue = (): string => sim.world.venues[index]!.id;

  it('summaries of additive counts equal the sums of the daily series', () => {
    const devices = sim.truth.series(venue(), 'venue-devices-history', FROM, TO).points;
    const users = sim.truth.series(venue(), 'venue-users-history', FROM, TO).points;
    const ratings = sim.truth.series(venue(), 'rating-history', FROM, TO).points;
    const devicesSummary = sim.truth.summary(venue(), 'venue-devices-summary', FROM, TO) as Record<string, number>;
    const usersSummary = sim.truth.summary(venue(), 'venue-users-summary', FROM, TO) as Record<string, number>;
    const rating = sim.truth.summary(venue(), 'rating-summary', FROM, TO) as { rates_count: number };
    expect(devicesSummary.detected).toBe(sum(devices.detected));
    expect(devicesSummary.authenticated).toBe(sum(devices.authenticated));
    expect(usersSummary.logins).toBe(sum(users.logins));
    expect(rating.rates_count).toBe(sum(ratings['rates-count']));
    expect(devicesSummary.detected).toBeGreaterThan(0);
  });

  it('unique counts never exceed their totals, at every grain', () => {
    const check = (devices: Record<string, readonly SeriesPoint[]>, users: Record<string, readonly SeriesPoint[]>): void => {
      devices.detected!.forEach(([, detected], i) => {
        const uniqueDetected = devices['unique-detected']![i]![1]!;
        const authenticated = devices.authenticated![i]![1]!;
        const uniqueAuthenticated = devices['unique-authenticated']![i]![1]!;
        expect(uniqueDetected).toBeLessThanOrEqual(detected!);
        expect(authenticated).toBeLessThanOrEqual(detected!);
        expect(uniqueAuthenticated).toBeLessThanOrEqual(authenticated);
      });
      users.logins!.forEach(([, logins], i) => {
        expect(users['unique-logins']![i]![1]).toBeLessThanOrEqual(logins!);
      });
    };
    check(sim.truth.series(venue(), 'venue-devices-history', FROM, TO).points, sim.truth.series(venue(), 'venue-users-history', FROM, TO).points);
    check(
      sim.truth.series(venue(), 'venue-devices-history', '2026-02-14', '2026-02-14').points,
      sim.truth.series(venue(), 'venue-users-history', '2026-02-14', '2026-02-14').points,
    );
    const devices = sim.truth.summary(venue(), 'venue-devices-summary', FROM, TO) as Record<string, number>;
    const users = sim.truth.summary(venue(), 'venue-users-summary', FROM, TO) as Record<string, number>;
    expect(devices['unique-detected']).toBeLessThanOrEqual(devices.detected!);
    expect(devices['unique-authenticated']).toBeLessThanOrEqual(devices.authenticated!);
    expect(devices.authenticated).toBeLessThanOrEqual(devices.detected!);
    expect(users['unique-logins']).toBeLessThanOrEqual(users.logins!);
    expect(users['returning-users']).toBeLessThanOrEqual(users['unique-logins']!);
    // A range's uniques are fewer than the sum of its days' uniques (visitors come back).
    expect(devices['unique-detected']).toBeLessThan(sum(sim.truth.series(venue(), 'venue-devices-history', FROM, TO).points['unique-detected']));
  });

  it('hourly points of a day add up to the daily point for additive counts', () => {
    for (const date of ['2026-01-05', '2026-02-21', TODAY]) {
      const daily = sim.truth.series(venue(), 'venue-devices-history', FROM, TO);
      const dailyPoint = daily.points.detected!.find(([ts]) => ts === `${date}T00:00:00+00:00`)!;
      const hourly = sim.truth.series(venue(), 'venue-devices-history', date, date);
      const users = sim.truth.series(venue(), 'venue-users-history', date, date);
      const embeds = sim.truth.series(venue(), 'venue-remarketing-history', date, date);
      const rates = sim.truth.series(venue(), 'rating-history', date, date);
      const day = sim.truth.day(venue(), date);
      expect(hourly.points.detected).toHaveLength(24);
      expect(sum(hourly.points.detected)).toBe(dailyPoint[1]);
      expect(sum(hourly.points.authenticated)).toBe(day.authenticated);
      expect(sum(users.points.logins)).toBe(day.logins);
      expect(sum(embeds.points.embeds)).toBe(day.embeds);
      expect(sum(rates.points['rates-count'])).toBe(day.ratesCount);
    }
  });

  it('login methods add up to the logins of the range; users status matches the summary', () => {
    const methods = sim.truth.summary(venue(), 'venue-users-login-methods', '2026-02-01', '2026-02-28') as Record<string, number>;
    const users = sim.truth.summary(venue(), 'venue-users-summary', '2026-02-01', '2026-02-28') as Record<string, number>;
    const status = sim.truth.summary(venue(), 'venue-users-status', '2026-02-01', '2026-02-28') as Record<string, number>;
    expect(Object.keys(methods)).toEqual([...LOGIN_METHODS]);
    expect(Object.values(methods).reduce((a, b) => a + b, 0)).toBe(users.logins);
    expect(status.active).toBe(users['confirmed-users']);
    expect(status.inactive).toBeGreaterThanOrEqual(0);
  });

  it('rates: average null without rates, consistent with the counts otherwise', () => {
    const daily = sim.truth.series(venue(), 'rating-history', FROM, TO).points;
    let weighted = 0;
    daily['rates-count']!.forEach(([, count], i) => {
      const average = daily['rates-average']![i]![1];
      if (count === 0) expect(average).toBeNull();
      else {
        expect(average).toBeGreaterThanOrEqual(1);
        expect(average).toBeLessThanOrEqual(5);
        weighted += average! * count!;
      }
    });
    const rating = sim.truth.summary(venue(), 'rating-summary', FROM, TO) as { rates_count: number; average_rate: number; rates_per_value: [number, number][] };
    const perValue = rating.rates_per_value;
    expect(perValue.reduce((a, [, c]) => a + c, 0)).toBe(rating.rates_count);
    const exact = perValue.reduce((a, [rate, c]) => a + rate * c, 0) / rating.rates_count;
    expect(Math.abs(rating.average_rate - exact)).toBeLessThanOrEqual(0.005);
    // Daily averages are rounded to 2 decimals, so their weighted mean is within a cent.
    expect(Math.abs(weighted / rating.rates_count - rating.average_rate)).toBeLessThanOrEqual(0.01);
  });

  it('rating statistics: sent ≥ opened ≥ rated ≥ commented, rated = rates_count', () => {
    const stats = sim.truth.ratingStatistics(venue(), FROM, TO);
    expect(stats['requests-sent']).toBeGreaterThanOrEqual(stats['requests-opened']);
    expect(stats['requests-opened']).toBeGreaterThanOrEqual(stats['requests-rated']);
    expect(stats['requests-rated']).toBeGreaterThanOrEqual(stats['requests-commented']);
    expect(stats['requests-rated']).toBe((sim.truth.summary(venue(), 'rating-summary', FROM, TO) as { rates_count: number }).rates_count);
    for (const date of ['2026-01-10', '2026-03-01']) {
      const day = sim.truth.ratingStatistics(venue(), date, date);
      expect(day['requests-sent']).toBeGreaterThanOrEqual(day['requests-opened']);
      expect(day['requests-opened']).toBeGreaterThanOrEqual(day['requests-rated']);
      expect(day['requests-rated']).toBeGreaterThanOrEqual(day['requests-commented']);
    }
  });
});

describe('determinism', () => {
  it('the same seed builds the same world and values; another seed a different one', async () => {
    const twin = await startSimulator({ seed: 5, venues: 6, days: 90, today: TODAY });
    const other = await startSimulator({ seed: 6, venues: 6, days: 90, today: TODAY });
    try {
      expect(twin.world).toEqual(sim.world);
      const venueId = sim.world.venues[2]!.id;
      expect(twin.truth.series(venueId, 'venue-users-history', FROM, TO)).toEqual(sim.truth.series(venueId, 'venue-users-history', FROM, TO));
      expect(twin.truth.venueRoles(venueId)).toEqual(sim.truth.venueRoles(venueId));
      expect(other.world.venues[0]!.id).not.toBe(sim.world.venues[0]!.id);
      expect(other.truth.summary(other.world.venues[0]!.id, 'venue-devices-summary')).not.toEqual(sim.truth.summary(venueId, 'venue-devices-summary'));
    } finally {
      await twin.close();
      await other.close();
    }
  });

  it('values of a date do not depend on the simulated today', () => {
    const later = buildWorld({ seed: 5, venues: 6, days: 120, today: '2026-04-09' });
    expect(later.historyStart).toBe(sim.world.historyStart);
  });

  it('ids are unique UUIDs; venues spread over projects, one project per three venues', () => {
    const ids = [...sim.world.projects, ...sim.world.venues, ...sim.world.accounts, ...sim.world.users].map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(sim.world.projects).toHaveLength(2);
    for (const v of sim.world.venues) expect(sim.world.projects.find((p) => p.id === v.projectId)!.venueIds).toContain(v.id);
    expect(sim.world.me).toEqual(sim.world.accounts[0]);
  });
});
