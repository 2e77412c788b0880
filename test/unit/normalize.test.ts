import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/catalogue/index.js';
import { appendSeries } from '../../src/normalize/series.js';
import { appendSummary } from '../../src/normalize/summary.js';
import { checkResource } from '../../src/normalize/resource.js';
import { DriftReporter } from '../../src/normalize/drift.js';
import { emptySeries, emptySummaries } from '../../src/normalize/columns.js';
import { offsetMsOf, parseTimestampMs } from '../../src/normalize/timestamp.js';
import { checkScope } from '../../src/normalize/scope.js';
import type { EtlError } from '../../src/errors/index.js';

const catalogue = buildCatalogue();
const V = '00000000-0000-4000-8000-000000000001';
const day = (d: string) => Date.parse(`${d}T00:00:00Z`);
const window = { startMs: day('2026-03-01'), endMs: day('2026-03-03') };

describe('timestamps', () => {
  it('parses the API form and other offsets, refuses local times and impossible dates', () => {
    expect(parseTimestampMs('2026-03-01T00:00:00+00:00')).toBe(day('2026-03-01'));
    expect(parseTimestampMs('2026-03-01T02:00:00+02:00')).toBe(day('2026-03-01'));
    expect(parseTimestampMs('2026-03-01T00:00:00Z')).toBe(day('2026-03-01'));
    expect(parseTimestampMs('2026-03-01T00:00:00')).toBeNaN();
    expect(parseTimestampMs('2026-02-31T00:00:00+00:00')).toBeNaN();
  });

  it('reads the offset a timestamp is written in', () => {
    expect(offsetMsOf('2026-03-01T00:00:00+02:00')).toBe(7_200_000);
    expect(offsetMsOf('2026-03-01T00:00:00-05:30')).toBe(-19_800_000);
    expect(offsetMsOf('2026-03-01T00:00:00.123+0100')).toBe(3_600_000);
    expect(offsetMsOf('2026-03-01T00:00:00Z')).toBe(0);
    expect(offsetMsOf('2026-03-01T00:00:00')).toBeNaN();
  });
});

describe('series', () => {
  const endpoint = catalogue.endpointFor('rating-history');
  const devices = catalogue.endpointFor('venue-devices-history');
  const codeOf = (run: () => unknown): string | undefined => {
    try {
      run();
    } catch (error) {
      return `${(error as EtlError).code}: ${(error as Error).message}`;
    }
    return undefined;
  };

  it('turns series attributes into long rows, keeps nulls, detects daily granularity', () => {
    const out = emptySeries(V, 'rating-history');
    const attrs = {
      'rates-average': [
        ['2026-03-01T00:00:00+00:00', 4.5],
        ['2026-03-02T00:00:00+00:00', null],
      ],
      'rates-count': [
        ['2026-03-01T00:00:00+00:00', 2],
        ['2026-03-02T00:00:00+00:00', 0],
      ],
    };
    const result = appendSeries(endpoint, attrs, window, out, 'data');
    expect(result).toEqual({ points: 4, outsideWindow: 0 });
    expect(out.metric).toEqual(['rates-average', 'rates-average', 'rates-count', 'rates-count']);
    expect(out.value).toEqual([4.5, null, 2, 0]);
    expect(out.granularity).toEqual(['day', 'day', 'day', 'day']);
  });

  it('stores a day point on its calendar date in its own offset, at day grain, whatever the offset', () => {
    for (const offset of ['+02:00', '-05:00', '+14:00', 'Z']) {
      const out = emptySeries(V, 'rating-history');
      const points = ['2026-03-01', '2026-03-02'].map((d, i) => [`${d}T00:00:00${offset}`, i + 1]);
      appendSeries(endpoint, { 'rates-average': points, 'rates-count': points }, window, out, 'data');
      expect(out.tsMs, offset).toEqual([day('2026-03-01'), day('2026-03-02'), day('2026-03-01'), day('2026-03-02')]);
      expect(out.granularity, offset).toEqual(['day', 'day', 'day', 'day']);
      expect(out.value, offset).toEqual([1, 2, 1, 2]);
    }
  });

  it('reads hours from spacing, keeps their instants, and needs the 24 UTC hours of a one-day window', () => {
    const oneDay = { startMs: day('2026-03-01'), endMs: day('2026-03-02') };
    // Written in +02:00: the same 24 instants as 00:00Z … 23:00Z.
    const hours = Array.from({ length: 24 }, (_, h) => [`${new Date(day('2026-03-01') + (h + 2) * 3_600_000).toISOString().slice(0, 19)}+02:00`, h]);
    const out = emptySeries(V, 'venue-remarketing-history');
    const remarketing = catalogue.endpointFor('venue-remarketing-history');
    expect(appendSeries(remarketing, { embeds: hours }, oneDay, out, 'data')).toEqual({ points: 24, outsideWindow: 0 });
    expect(out.granularity.every((g) => g === 'hour')).toBe(true);
    expect(out.tsMs).toEqual(Array.from({ length: 24 }, (_, h) => day('2026-03-01') + h * 3_600_000));
    const missing = hours.filter((_, h) => h !== 5);
    expect(codeOf(() => appendSeries(remarketing, { embeds: missing }, oneDay, emptySeries(V, 'x'), 'data'))).toMatch(
      /^VENUE_API_INCOMPLETE_ANSWER: .*embeds is missing 1 of 24 hours .*2026-03-01T05:00Z/,
    );
    const offHour = hours.map(([ts, v], h) => (h === 3 ? ['2026-03-01T05:30:00+02:00', v] : [ts, v]));
    expect(codeOf(() => appendSeries(remarketing, { embeds: offHour }, oneDay, emptySeries(V, 'x'), 'data'))).toMatch(
      /^VENUE_API_SCHEMA: .*embeds\[3\]\[0\] is not on the hour/,
    );
  });

  it('fails an empty or short series with a coded error that names the missing days', () => {
    const full = [
      ['2026-03-01T00:00:00+00:00', 1],
      ['2026-03-02T00:00:00+00:00', 2],
    ];
    expect(codeOf(() => appendSeries(endpoint, { 'rates-average': [], 'rates-count': full }, window, emptySeries(V, 'x'), 'data'))).toMatch(
      /^VENUE_API_INCOMPLETE_ANSWER: rating-history: data\.attributes\.rates-average has no point for 2026-03-01\.\.2026-03-02/,
    );
    expect(codeOf(() => appendSeries(endpoint, { 'rates-average': full, 'rates-count': full.slice(0, 1) }, window, emptySeries(V, 'x'), 'data'))).toMatch(
      /^VENUE_API_INCOMPLETE_ANSWER: .*rates-count is missing 1 of 2 days of 2026-03-01\.\.2026-03-02: 2026-03-02$/,
    );
  });

  it('drops identical copies of a point, refuses the same day with another value naming metric and timestamps, counts points outside the window', () => {
    const out = emptySeries(V, 'rating-history');
    const count = [
      ['2026-03-01T00:00:00+00:00', 1],
      ['2026-03-01T00:00:00+00:00', 1],
      ['2026-03-02T00:00:00+00:00', 2],
      ['2026-03-05T00:00:00+00:00', 3],
    ];
    expect(
      appendSeries(
        endpoint,
        {
          'rates-average': [
            ['2026-03-01T00:00:00Z', null],
            ['2026-03-02T00:00:00Z', 4],
          ],
          'rates-count': count,
        },
        window,
        out,
        'data',
      ),
    ).toEqual({ points: 4, outsideWindow: 1 });
    expect(out.value).toEqual([null, 4, 1, 2]);
    const twice = [
      ['2026-03-01T00:00:00+00:00', 1],
      ['2026-03-02T00:00:00+00:00', 2],
      ['2026-03-02T00:00:00+02:00', 3],
    ];
    expect(
      codeOf(() =>
        appendSeries(endpoint, { 'rates-average': twice.map(([t]) => [t, 4]).slice(0, 2), 'rates-count': twice }, window, emptySeries(V, 'x'), 'data'),
      ),
    ).toBe(
      'VENUE_API_CONTRADICTORY_VALUES: rating-history: data.attributes.rates-count[2] repeats the day 2026-03-02 of [1] (2026-03-02T00:00:00+00:00 then 2026-03-02T00:00:00+02:00) with another value: 2 then 3',
    );
  });

  it("checks every value against its metric's domain: counts are safe whole numbers, rates 1 to 5 or null", () => {
    const at = (value: unknown) => [
      ['2026-03-01T00:00:00+00:00', value],
      ['2026-03-02T00:00:00+00:00', 1],
    ];
    const counts: [unknown, RegExp][] = [
      [-1, /got -1 \(at 2026-03-01T00:00:00\+00:00\)/],
      [2.5, /got 2\.5/],
      [1e308, /got 1e\+308/],
      [2 ** 53, /got 9007199254740992 \(as parsed/],
      [null, /got null/],
    ];
    for (const [value, problem] of counts) {
      const message = codeOf(() =>
        appendSeries(
          devices,
          { detected: at(value), 'unique-detected': at(1), 'unique-authenticated': at(1), authenticated: at(1) },
          window,
          emptySeries(V, 'x'),
          'data',
        ),
      );
      expect(message, String(value)).toMatch(/^VENUE_API_BAD_VALUE: venue-devices-history: data\.attributes\.detected\[0\]\[1\] must be a count/);
      expect(message, String(value)).toMatch(problem);
    }
    for (const rate of [7, -1, 0, 5.5]) {
      expect(codeOf(() => appendSeries(endpoint, { 'rates-average': at(rate), 'rates-count': at(1) }, window, emptySeries(V, 'x'), 'data'))).toMatch(
        /^VENUE_API_BAD_VALUE: .*rates-average\[0\]\[1\] must be a rate from 1 to 5 or null/,
      );
    }
    expect(codeOf(() => appendSeries(endpoint, { 'rates-average': at(null), 'rates-count': at(0) }, window, emptySeries(V, 'x'), 'data'))).toBeUndefined();
  });

  it('names the offending field when a value is not a number', () => {
    const out = emptySeries(V, 'rating-history');
    const attrs = { 'rates-average': [['2026-03-01T00:00:00+00:00', '4']], 'rates-count': [] };
    expect(() => appendSeries(endpoint, attrs, window, out, 'data')).toThrow(/data\.attributes\.rates-average\[0\]\[1\] must be a number or null/);
  });
});

describe('summaries', () => {
  const rating = catalogue.endpointFor('rating-summary');
  const period = { venueId: V, periodStart: '2026-03-01', periodEnd: '2026-03-01' };
  const pairs = [
    [1, 0],
    [2, 0],
    [3, 1],
    [4, 1],
    [5, 1],
  ];
  const codeOf = (attributes: Record<string, unknown>, endpoint = rating, keys = new Map<string, number | null>()): string | undefined => {
    try {
      appendSummary(endpoint, attributes, period, emptySummaries(endpoint.stream), 'data', keys);
    } catch (error) {
      return `${(error as EtlError).code}: ${(error as Error).message}`;
    }
    return undefined;
  };

  it('applies the same domains as series: counts, rates, the 0 of "no rates", rate values 1 to 5', () => {
    expect(codeOf({ rates_count: 3, average_rate: 4.2, rates_per_value: pairs })).toBeUndefined();
    expect(codeOf({ rates_count: 0, average_rate: 0, rates_per_value: pairs.map(([r]) => [r, 0]) })).toBeUndefined();
    expect(codeOf({ rates_count: 0, average_rate: null, rates_per_value: pairs.map(([r]) => [r, 0]) })).toBeUndefined();
    expect(codeOf({ rates_count: 3, average_rate: 7, rates_per_value: pairs })).toMatch(
      /^VENUE_API_BAD_VALUE: rating-summary: data\.attributes\.average_rate must be a rate from 1 to 5, or 0 or null for no rates, got 7$/,
    );
    expect(codeOf({ rates_count: 3, average_rate: -1, rates_per_value: pairs })).toMatch(/^VENUE_API_BAD_VALUE: .*average_rate.*got -1/);
    expect(codeOf({ rates_count: -3, average_rate: 4, rates_per_value: pairs })).toMatch(/^VENUE_API_BAD_VALUE: .*rates_count must be a count/);
    expect(codeOf({ rates_count: 2 ** 53, average_rate: 4, rates_per_value: pairs })).toMatch(/^VENUE_API_BAD_VALUE: .*rates_count.*9007199254740992/);
    expect(codeOf({ rates_count: 3, average_rate: 4, rates_per_value: [...pairs.slice(0, 4), [6, 1]] })).toMatch(
      /^VENUE_API_BAD_VALUE: .*rates_per_value\[4\]\[0\] must be a rate value/,
    );
    expect(codeOf({ rates_count: 3, average_rate: 4, rates_per_value: [...pairs.slice(0, 4), [5, 0.5]] })).toMatch(
      /^VENUE_API_BAD_VALUE: .*rates_per_value\[4\]\[1\] must be a count/,
    );
    const users = catalogue.endpointFor('venue-users-summary');
    expect(codeOf({ logins: 1e308, 'unique-logins': 1, 'confirmed-users': 0, 'returning-users': 0 }, users)).toMatch(
      /^VENUE_API_BAD_VALUE: .*logins must be a count.*1e\+308/,
    );
  });

  it('refuses a missing or repeated rate, and a second value for the same period', () => {
    expect(codeOf({ rates_count: 3, average_rate: 4, rates_per_value: pairs.slice(1) })).toMatch(
      /^VENUE_API_INCOMPLETE_ANSWER: .*rates_per_value has no pair for 1$/,
    );
    expect(codeOf({ rates_count: 3, average_rate: 4, rates_per_value: [...pairs, [1, 0]] })).toBeUndefined();
    expect(codeOf({ rates_count: 3, average_rate: 4, rates_per_value: [...pairs, [1, 4]] })).toMatch(
      /^VENUE_API_CONTRADICTORY_VALUES: .*rates_per_value\[5\] repeats key 1 of \[0\] with another count: 0 then 4/,
    );
    const keys = new Map<string, number | null>();
    expect(codeOf({ rates_count: 3, average_rate: 4, rates_per_value: pairs }, rating, keys)).toBeUndefined();
    expect(codeOf({ rates_count: 3, average_rate: 4, rates_per_value: pairs }, rating, keys)).toBeUndefined();
    expect(codeOf({ rates_count: 4, average_rate: 4, rates_per_value: pairs }, rating, keys)).toMatch(
      /^VENUE_API_CONTRADICTORY_VALUES: .*rates_count.*3 then 4/,
    );
  });
});

describe('scope', () => {
  const stats = catalogue.endpointFor('rating-statistics-summaries');
  const roles = catalogue.endpointFor('project-roles');
  const other = '00000000-0000-4000-8000-000000000002';
  const resource = (relationships?: unknown) => ({ type: 'rating-statistics-summary', id: V, attributes: {}, relationships });
  const venue = (id: string) => ({ venue: { data: { type: 'venues', id } } });

  it('accepts the venue asked for (any case) and refuses another one, naming both', () => {
    expect(() => checkScope(stats, resource(venue(V.toUpperCase())), V, 'data[0]')).not.toThrow();
    expect(() => checkScope(stats, resource(venue(other)), V, 'data[0]')).toThrow(
      `rating-statistics-summaries: data[0].relationships.venue.data.id is ${other}, but the request asked for venue ${V}`,
    );
    expect(() => checkScope(stats, resource(), V, 'data[0]')).toThrow(/relationships\.venue\.data\.id is missing/);
    // The analytics resources of 4.1-4.9 need not name their venue; when they do, it must be the path's.
    const history = catalogue.endpointFor('venue-users-history');
    expect(() => checkScope(history, resource(), V, 'data')).not.toThrow();
    expect(() => checkScope(history, resource(venue(other)), V, 'data')).toThrow(/VENUE|asked for venue/);
    const project = { type: 'project-roles', id: V, attributes: {}, relationships: { project: { data: { type: 'projects', id: other } } } };
    expect(() => checkScope(roles, project, V, 'page 1 data[0]')).toThrow(/page 1 data\[0\]\.relationships\.project\.data\.id is .* asked for project/);
  });
});

describe('resources', () => {
  it('fails on a missing attribute with its path and reports an unknown one once', () => {
    const endpoint = catalogue.endpointFor('venue-users-summary');
    const drift = new DriftReporter();
    const resource = {
      type: 'venue-users-summary',
      id: V,
      attributes: { logins: 1, 'unique-logins': 1, 'confirmed-users': 0, 'returning-users': 0, extra: 5 },
    };
    checkResource(endpoint, resource, 'data', drift);
    checkResource(endpoint, resource, 'data', drift);
    expect(drift.unknown).toEqual([{ stream: 'venue-users-summary', attribute: 'extra' }]);
    const missing = { type: 'venue-users-summary', id: V, attributes: { logins: 1, 'unique-logins': 1, 'confirmed-users': 0 } };
    expect(() => checkResource(endpoint, missing, 'data', drift)).toThrow(/data\.attributes\.returning-users is missing/);
  });

  it('on a config row without metrics, loads numbers without calling them drift, and refuses a number sent as a string', () => {
    const rows = buildCatalogue([
      { stream: 'project-devices-summary', path: '/p/{project_id}/', scope: 'project', kind: 'summary', resourceType: 'project-devices-summary' },
    ]);
    const endpoint = rows.endpointFor('project-devices-summary');
    const drift = new DriftReporter();
    const resource = (attributes: Record<string, unknown>) => ({ type: 'project-devices-summary', id: V, attributes });
    checkResource(endpoint, resource({ detected: 4, authenticated: null, label: 'x' }), 'data', drift);
    expect(drift.unknown).toEqual([{ stream: 'project-devices-summary', attribute: 'label' }]);
    expect(() => checkResource(endpoint, resource({ detected: '12', authenticated: 1 }), 'data', drift)).toThrow(
      /data\.attributes\.detected must be a number, got "12"/,
    );
  });

  it('expands rating pairs into rates_per_value.N metrics', () => {
    const endpoint = catalogue.endpointFor('rating-summary');
    const out = emptySummaries('rating-summary');
    const attrs = {
      rates_count: 3,
      average_rate: 4,
      rates_per_value: [
        [1, 0],
        [2, 0],
        [3, 1],
        [4, 1],
        [5, 1],
      ],
    };
    checkResource(endpoint, { type: 'rating', id: V, attributes: attrs }, 'data', new DriftReporter());
    appendSummary(endpoint, attrs, { venueId: V, periodStart: '2026-03-01', periodEnd: '2026-03-01' }, out, 'data');
    expect(out.metric).toEqual([
      'rates_count',
      'average_rate',
      'rates_per_value.1',
      'rates_per_value.2',
      'rates_per_value.3',
      'rates_per_value.4',
      'rates_per_value.5',
    ]);
    expect(out.value).toEqual([3, 4, 0, 0, 1, 1, 1]);
  });
});
