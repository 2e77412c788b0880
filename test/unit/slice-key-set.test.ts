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

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const STREAMS = ['venue-devices-history', 'venue-devices-summary', 'venue-users-history', 'venue-users-summary', 'venue-roles'];

/** Every slice of `venues` venues: monthly windows (summaries at month grain), and a few day windows. */
function universe(venues: number): string[] {
  const keys: string[] = [];
  for (let v = 0; v < venues; v += 1) {
    const venue = `venue-${v}`;
    for (const stream of STREAMS) {
      const grain = stream.endsWith('summary') ? 'month' : undefined;
      for (let m = 0; m < 24; m += 1) {
        const from = new Date(Date.UTC(2024, m, 1)).toISOString().slice(0, 10);
        const to = new Date(Date.UTC(2024, m + 1, 0)).toISOString().slice(0, 10);
        keys.push(sliceKey(stream, venue, from, to, grain));
      }
      for (let d = 1; d <= 5; d += 1) keys.push(sliceKey(stream, venue, `2026-01-0${d}`, `2026-01-0${d}`, 'day'));
    }
  }
  return keys;
}

/** Each answer of the set against a Set of the strings, for every key of the universe and for near misses. */
function expectSameAs(done: SliceKeySet, truth: Set<string>, keys: readonly string[]): void {
  expect(done.size).toBe(truth.size);
  const wrong: string[] = [];
  for (const key of keys) {
    const nearMisses = [
      key,
      key.replace('venue-', 'venue-1'),
      key.replace('-01|', '-02|'),
      key.replace(/\|([^|]*)$/, '|hour'),
      key.replace('|', '-x|'),
      key.replace('|venue-', '|venue-1'),
    ];
    for (const probe of nearMisses) if (done.has(probe) !== truth.has(probe)) wrong.push(probe);
  }
  expect(wrong).toEqual([]);
}

describe('SliceKeySet packed and sealed', () => {
  it('answers exactly like a Set of the strings, for thousands of scopes, once sealed', () => {
    const keys = universe(300);
    const next = random(7);
    const added = keys.filter(() => next() < 0.5);
    const done = new SliceKeySet();
    // Each added key twice, the second time out of order: counted and found once.
    for (const key of added) done.add(key);
    for (const key of [...added].reverse()) done.add(key);
    done.seal();
    expect(added.length).toBeGreaterThan(10_000);
    expectSameAs(done, new Set(added), keys);
  });

  it('seals itself on the first lookup, and sealing twice changes nothing', () => {
    const a = sliceKey('venue-devices-history', VENUE, '2026-01-01', '2026-01-31');
    const b = sliceKey('venue-devices-history', OTHER, '2026-01-01', '2026-01-31');
    const done = new SliceKeySet([a, b, a]);
    expect(done.has(a)).toBe(true);
    done.seal();
    done.seal();
    expect([done.size, done.has(a), done.has(b)]).toEqual([2, true, true]);
    expect(new SliceKeySet().size).toBe(0);
    expect(new SliceKeySet().has(a)).toBe(false);
  });

  it('still counts and finds keys added after a lookup: new windows, new scopes, duplicates, and more than it merges at once', () => {
    const keys = universe(60);
    const next = random(11);
    const early = keys.filter(() => next() < 0.3);
    const done = new SliceKeySet(early);
    const truth = new Set(early);
    expectSameAs(done, truth, keys);
    // Added one by one with a lookup between: the late keys, then merged into the sealed ones.
    const late = [...keys.filter(() => next() < 0.5), ...universe(70).slice(keys.length), ...early.slice(0, 100)];
    expect(late.length).toBeGreaterThan(3_000);
    for (const key of late) {
      done.add(key);
      truth.add(key);
      expect(done.has(key)).toBe(true);
    }
    expectSameAs(done, truth, universe(70));
  });

  it('tells apart keys whose bars fall in different places (a scope id may hold a bar), down to the first day it can hold', () => {
    const days = '2026-01-01|2026-01-31|';
    const keys = [
      `a|b|c|${days}`,
      `a|bc|${days}`,
      `ab|c|${days}`,
      'a|b|1970-01-01|1970-01-01|',
      `a|b||${days}`,
      `a||b|${days}`,
      `a|b|c|${days}day`,
      'a|b|1970-01-01|1970-01-02|',
    ];
    const done = new SliceKeySet(keys.slice(0, 4));
    expect(done.size).toBe(4);
    expect(keys.map((key) => done.has(key))).toEqual([true, true, true, true, false, false, false, false]);
  });
});
