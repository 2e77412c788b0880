import { describe, expect, it } from 'vitest';
import { authorizationChecker } from '../../src/receiver/authorization.js';
import { isJsonContentType } from '../../src/receiver/content-type.js';
import { decodeVersions, encodeVersions } from '../../src/receiver/field-versions.js';
import { eventVersion } from '../../src/receiver/journaled-event.js';
import { instantIso, normalizeInstant, parseInstant } from '../../src/receiver/timestamps.js';
import { validateEvent } from '../../src/receiver/validate-event.js';
import { eventBody } from './helpers.js';

describe('instants', () => {
  it('keep microseconds and convert offsets to UTC', () => {
    expect(normalizeInstant('2024-03-01T09:30:00.123456+01:00')).toBe('2024-03-01T08:30:00.123456Z');
    expect(normalizeInstant('2026-01-02T03:04:05Z')).toBe('2026-01-02T03:04:05.000000Z');
    expect(normalizeInstant('2026-01-02T03:04:05.1-0230')).toBe('2026-01-02T05:34:05.100000Z');
    // No offset: read as UTC.
    expect(normalizeInstant('2026-01-02 03:04')).toBe('2026-01-02T03:04:00.000000Z');
    expect(normalizeInstant('2026-01-31')).toBe('2026-01-31T00:00:00.000000Z');
    expect(instantIso(parseInstant('0099-12-31T23:59:59.999999Z')!)).toBe('0099-12-31T23:59:59.999999Z');
  });

  it('refuse what is not a real ISO 8601 date-time', () => {
    for (const text of ['2026-02-29T00:00:00Z', '2026-13-01T00:00:00Z', '2026-01-01T24:00:00Z', 'yesterday', '2026-1-01', '2026-01-01T10', '1767225600']) {
      expect(parseInstant(text), text).toBeUndefined();
    }
  });

  it('refuse an offset that carries the instant out of the years 0000-9999 (no timestamp text holds it)', () => {
    expect(parseInstant('9999-12-31T23:59:59-23:59')).toBeUndefined();
    expect(parseInstant('0000-01-01T00:00:00+01:00')).toBeUndefined();
    expect(instantIso(parseInstant('9999-12-31T10:00:00-13:00')!)).toBe('9999-12-31T23:00:00.000000Z');
  });
});

describe('text', () => {
  it('refuses a lone surrogate anywhere in the body, naming where', () => {
    const body = (name: string, extra = '') => JSON.parse(eventBody().replace('"Ana"', `"${name}"${extra}`));
    expect(validateEvent(body('An\\\\ud800a'))).toMatchObject({ ok: true });
    expect(validateEvent(body('An\\ud800a'))).toEqual({
      ok: false,
      problems: [{ path: 'data.user.first-name', message: 'is not valid Unicode text (a lone surrogate)' }],
    });
    expect(validateEvent(body('Ana', ',"note":[["\\udc00"]]'))).toMatchObject({ ok: false, problems: [{ path: 'data.user.note[0][0]' }] });
    expect(validateEvent(body('\\ud83d\\ude00'))).toMatchObject({ ok: true });
  });
});

describe('event versions ("older")', () => {
  const version = (body: string, receivedAtMs = 0): string => {
    const validation = validateEvent(JSON.parse(body));
    if (!validation.ok) throw new Error('invalid');
    return eventVersion(validation.event, receivedAtMs, 'f'.repeat(64));
  };

  it('order by last-visit-on, then visits-count, then arrival', () => {
    const early = version(eventBody({ last: '2026-01-01T10:00:00Z', visits: 9 }), 5);
    const late = version(eventBody({ last: '2026-01-01T10:00:00.000001Z', visits: 1 }), 1);
    const lateMoreVisits = version(eventBody({ last: '2026-01-01T10:00:00.000001Z', visits: 2 }), 0);
    const lateMoreVisitsLater = version(eventBody({ last: '2026-01-01T10:00:00.000001Z', visits: 2 }), 7);
    expect([lateMoreVisitsLater, late, early, lateMoreVisits].sort()).toEqual([early, late, lateMoreVisits, lateMoreVisitsLater]);
  });

  it('count an event without a visit time as older than any with one', () => {
    const body = JSON.parse(eventBody({ last: '1970-01-01T00:00:00Z' }));
    const withVisit = version(JSON.stringify(body));
    delete body.data['user-venue-history'];
    expect(version(JSON.stringify(body), Date.now()) < withVisit).toBe(true);
  });
});

describe('stored field versions', () => {
  it('store the common version once and round-trip', () => {
    const versions = { email: 'v2', phone: 'v1', language: 'v2', gender: 'v2' };
    const text = encodeVersions(versions);
    expect(JSON.parse(text)).toEqual({ '*': 'v2', phone: 'v1' });
    expect(decodeVersions(text, ['email', 'phone', 'language', 'gender'])).toEqual(versions);
    expect(decodeVersions(encodeVersions({}), ['email'])).toEqual({});
  });
});

describe('request checks', () => {
  it('accept exactly the configured Authorization value', () => {
    const check = authorizationChecker('Basic dXNlcjpwYXNz');
    expect(check('Basic dXNlcjpwYXNz')).toBe(true);
    for (const wrong of [undefined, '', 'Basic dXNlcjpwYXN', 'Basic dXNlcjpwYXNzz', 'basic dXNlcjpwYXNz', 'Basic  dXNlcjpwYXNz', 'dXNlcjpwYXNz']) {
      expect(check(wrong), String(wrong)).toBe(false);
    }
  });

  it('take application/json with parameters only', () => {
    expect(isJsonContentType('application/json')).toBe(true);
    expect(isJsonContentType('application/json; charset=utf-8')).toBe(true);
    expect(isJsonContentType(' APPLICATION/JSON ;charset=UTF-8')).toBe(true);
    for (const other of [undefined, '', 'text/json', 'application/jsonx', 'application/x-www-form-urlencoded', 'application/vnd.api+json']) {
      expect(isJsonContentType(other), String(other)).toBe(false);
    }
  });
});
