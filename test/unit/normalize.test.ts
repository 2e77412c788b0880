import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/catalogue/index.js';
import { appendSeries } from '../../src/normalize/series.js';
import { appendSummary } from '../../src/normalize/summary.js';
import { checkResource } from '../../src/normalize/resource.js';
import { DriftReporter } from '../../src/normalize/drift.js';
import { emptySeries, emptySummaries } from '../../src/normalize/columns.js';
import { parseTimestampMs } from '../../src/normalize/timestamp.js';

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
});

describe('series', () => {
  const endpoint = catalogue.endpointFor('rating-history');

  it('turns series attributes into long rows, keeps nulls, detects daily granularity', () => {
    const out = emptySeries(V, 'rating-history');
    const attrs = {
      'rates-average': [['2026-03-01T00:00:00+00:00', 4.5], ['2026-03-02T00:00:00+00:00', null]],
      'rates-count': [['2026-03-01T00:00:00+00:00', 2], ['2026-03-02T00:00:00+00:00', 0]],
    };
    const result = appendSeries(endpoint, attrs, window, out, 'data');
    expect(result).toEqual({ points: 4, outsideWindow: 0 });
    expect(out.metric).toEqual(['rates-average', 'rates-average', 'rates-count', 'rates-count']);
    expect(out.value).toEqual([4.5, null, 2, 0]);
    expect(out.granularity).toEqual(['day', 'day', 'day', 'day']);
  });

  it('detects hourly points and drops points outside the window', () => {
    const out = emptySeries(V, 'rating-history');
    const attrs = {
      'rates-average': [['2026-03-01T00:00:00+00:00', 1], ['2026-03-01T01:00:00+00:00', 2], ['2026-03-05T00:00:00+00:00', 3]],
      'rates-count': [],
    };
    expect(appendSeries(endpoint, attrs, window, out, 'data')).toEqual({ points: 2, outsideWindow: 1 });
    expect(out.granularity).toEqual(['hour', 'hour']);
  });

  it('names the offending field when a value is not a number', () => {
    const out = emptySeries(V, 'rating-history');
    const attrs = { 'rates-average': [['2026-03-01T00:00:00+00:00', '4']], 'rates-count': [] };
    expect(() => appendSeries(endpoint, attrs, window, out, 'data')).toThrow(/data\.attributes\.rates-average\[0\]\[1\] must be a number or null/);
  });
});

describe('resources', () => {
  it('fails on a missing attribute with its path and reports an unknown one once', () => {
    const endpoint = catalogue.endpointFor('venue-users-summary');
    const drift = new DriftReporter();
    const resource = { type: 'venue-users-summary', id: V, attributes: { logins: 1, 'unique-logins': 1, 'confirmed-users': 0, 'returning-users': 0, extra: 5 } };
    checkResource(endpoint, resource, 'data', drift);
    checkResource(endpoint, resource, 'data', drift);
    expect(drift.unknown).toEqual([{ stream: 'venue-users-summary', attribute: 'extra' }]);
    const missing = { type: 'venue-users-summary', id: V, attributes: { logins: 1, 'unique-logins': 1, 'confirmed-users': 0 } };
    expect(() => checkResource(endpoint, missing, 'data', drift)).toThrow(/data\.attributes\.returning-users is missing/);
  });

  it('on a config row without metrics, loads numbers without calling them drift, and refuses a number sent as a string', () => {
    const rows = buildCatalogue({
      endpoints: [{ stream: 'project-devices-summary', path: '/p/{project_id}/', scope: 'project', kind: 'summary', resourceType: 'project-devices-summary' }],
    });
    const endpoint = rows.endpointFor('project-devices-summary');
    const drift = new DriftReporter();
    const resource = (attributes: Record<string, unknown>) => ({ type: 'project-devices-summary', id: V, attributes });
    checkResource(endpoint, resource({ detected: 4, authenticated: null, label: 'x' }), 'data', drift);
    expect(drift.unknown).toEqual([{ stream: 'project-devices-summary', attribute: 'label' }]);
    expect(() => checkResource(endpoint, resource({ detected: '12', authenticated: 1 }), 'data', drift)).toThrow(/data\.attributes\.detected must be a number, got "12"/);
  });

  it('expands rating pairs into rates_per_value.N metrics', () => {
    const endpoint = catalogue.endpointFor('rating-summary');
    const out = emptySummaries('rating-summary');
    const attrs = { rates_count: 3, average_rate: 4, rates_per_value: [[1, 0], [2, 0], [3, 1], [4, 1], [5, 1]] };
    checkResource(endpoint, { type: 'rating', id: V, attributes: attrs }, 'data', new DriftReporter());
    appendSummary(endpoint, attrs, { venueId: V, periodStart: '2026-03-01', periodEnd: '2026-03-01' }, out, 'data');
    expect(out.metric).toEqual(['rates_count', 'average_rate', 'rates_per_value.1', 'rates_per_value.2', 'rates_per_value.3', 'rates_per_value.4', 'rates_per_value.5']);
    expect(out.value).toEqual([3, 4, 0, 0, 1, 1, 1]);
  });
});
