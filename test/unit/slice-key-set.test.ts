import { describe, expect, it } from 'vitest';
import { SliceKeySet, sliceKey } from '../../src/plan/index.js';

const VENUE = '0b6f3c1e-4a52-4c1b-9a55-2f3a8d7e6c01';
const OTHER = '7d2e9f40-1c3b-4e8a-b6d5-90a1c2e3f405';

describe('SliceKeySet (the done slices of a resumed backfill)', () => {
  it('has exactly the keys added: scope, stream, window and grain all count', () => {
    const done = new SliceKeySet([
      sliceKey('devices-history', VENUE, '2026-01-01', '2026-01-31'),
      sliceKey('devices-history', VENUE, '2026-01-01', '2026-01-31', 'hour'),
      sliceKey('logins-summary', OTHER, '2026-02-03', '2026-02-03'),
    ]);
    expect(done.size).toBe(3);
    expect(done.has(sliceKey('devices-history', VENUE, '2026-01-01', '2026-01-31'))).toBe(true);
    expect(done.has(sliceKey('devices-history', VENUE, '2026-01-01', '2026-01-31', 'hour'))).toBe(true);
    expect(done.has(sliceKey('logins-summary', OTHER, '2026-02-03', '2026-02-03'))).toBe(true);
    // One field different each: not done.
    expect(done.has(sliceKey('devices-history', OTHER, '2026-01-01', '2026-01-31'))).toBe(false);
    expect(done.has(sliceKey('logins-history', VENUE, '2026-01-01', '2026-01-31'))).toBe(false);
    expect(done.has(sliceKey('devices-history', VENUE, '2026-01-02', '2026-01-31'))).toBe(false);
    expect(done.has(sliceKey('devices-history', VENUE, '2026-01-01', '2026-01-30'))).toBe(false);
    expect(done.has(sliceKey('devices-history', VENUE, '2026-01-01', '2026-01-31', 'month'))).toBe(false);
    expect(done.has(sliceKey('logins-summary', OTHER, '2026-02-03', '2026-02-04'))).toBe(false);
  });

  it('counts a key added twice once', () => {
    const key = sliceKey('devices-history', VENUE, '2026-01-01', '2026-01-31');
    const done = new SliceKeySet([key, key, 'roles|all||', 'roles|all||']);
    expect(done.size).toBe(2);
  });

  it('keeps keys of another shape, and dates that do not exist, as they are (never mistaken for a real day)', () => {
    const odd = ['roles|all', 'devices-history|x|2026-02-31|2026-03-01|', 'devices-history|x|1960-01-01|1960-01-02|', 'a|2026-01-01|2026-01-01|b|c'];
    const done = new SliceKeySet(odd);
    expect(done.size).toBe(odd.length);
    for (const key of odd) expect(done.has(key)).toBe(true);
    // 2026-02-31 would be 2026-03-03 for Date.UTC.
    expect(done.has('devices-history|x|2026-03-03|2026-03-01|')).toBe(false);
    expect(done.has('devices-history|x|2026-03-03|2026-03-03|')).toBe(false);
  });

  it('tells apart more grains than fit in its bits', () => {
    const grains = Array.from({ length: 12 }, (_, i) => `g${i}`);
    const done = new SliceKeySet(grains.slice(0, 11).map((g) => sliceKey('devices-history', VENUE, '2026-01-01', '2026-01-31', g)));
    for (const g of grains.slice(0, 11)) expect(done.has(sliceKey('devices-history', VENUE, '2026-01-01', '2026-01-31', g))).toBe(true);
    expect(done.has(sliceKey('devices-history', VENUE, '2026-01-01', '2026-01-31', 'g11'))).toBe(false);
  });
});
