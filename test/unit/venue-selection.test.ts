import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveConfig } from '../../src/config/index.js';
import { EtlError } from '../../src/errors/index.js';
import { checkVenuesWhereNothingIsStored, KNOWN_VENUES_SELECTION, selectConfigVenues, selectVenues, type VenueCandidate } from '../../src/venue-names/index.js';

const NORTH_1 = 'a00faf44-0000-4000-8000-000000000001';
const NORTH_2 = 'a00faf44-1f2e-4000-8000-000000000002';
const CAFE = 'b7c1d2e3-0000-4000-8000-000000000003';
const NAMELESS = 'c0ffee00-0000-4000-8000-000000000004';
const COMMA = 'd1d2d3d4-0000-4000-8000-000000000005';

/** As sql/views/venue-labels.sql labels them: two venues named alike (told apart by 13 characters), one without a name. */
const CANDIDATES: VenueCandidate[] = [
  { id: NORTH_1, name: 'North Hostel', label: 'North Hostel (a00faf44-0000)' },
  { id: NORTH_2, name: 'North Hostel', label: 'North Hostel (a00faf44-1f2e)' },
  { id: CAFE, name: 'Café Central', label: 'Café Central' },
  { id: NAMELESS, name: null, label: 'c0ffee00' },
  { id: COMMA, name: 'Hostel, Lisbon', label: 'Hostel, Lisbon' },
];

const select = (...texts: string[]): string[] => selectVenues(texts, CANDIDATES, KNOWN_VENUES_SELECTION);

function refusal(work: () => unknown): EtlError {
  try {
    work();
  } catch (error) {
    expect(error).toBeInstanceOf(EtlError);
    return error as EtlError;
  }
  throw new Error('expected the selection to be refused');
}

describe('--venues: ids, id prefixes and names', () => {
  it('takes whole ids as they are, known or not, as before', () => {
    const unknown = 'ffffffff-0000-4000-8000-000000000009';
    expect(select(`${CAFE},${unknown}`)).toEqual([CAFE, unknown]);
    expect(selectVenues([CAFE.toUpperCase()], [], KNOWN_VENUES_SELECTION)).toEqual([CAFE.toUpperCase()]);
  });

  it('takes a unique id prefix of 8 or more characters, with or without its dashes', () => {
    expect(select('b7c1d2e3')).toEqual([CAFE]);
    expect(select('C0FFEE00-00')).toEqual([NAMELESS]);
    expect(select('a00faf441f2e')).toEqual([NORTH_2]);
    expect(select('a00faf44-1f')).toEqual([NORTH_2]);
  });

  it('takes an exact name or label, and a whole text that is a name with a comma in it', () => {
    expect(select('Café Central')).toEqual([CAFE]);
    expect(select('North Hostel (a00faf44-0000)')).toEqual([NORTH_1]);
    expect(select('c0ffee00, Café Central')).toEqual([NAMELESS, CAFE]);
    expect(select('Hostel, Lisbon')).toEqual([COMMA]);
    // Every part once, in the order given.
    expect(select('Café Central,b7c1d2e3', CAFE)).toEqual([CAFE]);
  });

  it('refuses an ambiguous prefix, listing every venue it fits (exit 2)', () => {
    const error = refusal(() => select('a00faf44'));
    expect(error.code).toBe('VENUE_ETL_AMBIGUOUS_VENUE');
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain('"a00faf44" fits 2 venues:');
    expect(error.message).toContain(`${NORTH_1}  North Hostel (a00faf44-0000)`);
    expect(error.message).toContain(`${NORTH_2}  North Hostel (a00faf44-1f2e)`);
    expect(error.hint).toMatch(/whole id, or enough of its first characters/);
  });

  it('refuses a name two venues have, listing both', () => {
    const error = refusal(() => select('North Hostel'));
    expect(error.code).toBe('VENUE_ETL_AMBIGUOUS_VENUE');
    expect(error.message).toMatch(new RegExp(`"North Hostel" fits 2 venues:\\n {4}${NORTH_1} .*\\n {4}${NORTH_2} `));
  });

  it('says when nothing matches, with the closest name, a prefix too short, and every problem at once', () => {
    const typo = refusal(() => select('Cafe Centrl'));
    expect(typo.code).toBe('VENUE_ETL_UNKNOWN_VENUE');
    expect(typo.exitCode).toBe(2);
    expect(typo.message).toBe('--venues: "Cafe Centrl" is no venue\'s name, label or id; did you mean "Café Central"?');
    expect(typo.hint).toContain('SELECT * FROM venue_labels');
    expect(refusal(() => select('b7c1d2')).message).toContain('(an id prefix needs at least 8 characters)');
    expect(refusal(() => select('b7c1d2e4')).message).toContain('did you mean "b7c1d2e3"?');
    const both = refusal(() => select('nope,a00faf44'));
    // One ambiguity among the problems makes it the ambiguity error; both are listed.
    expect(both.code).toBe('VENUE_ETL_AMBIGUOUS_VENUE');
    expect(both.message).toMatch(/^--venues: 2 venues not found or not unique:\n {2}- "nope" is no venue's name/);
    expect(both.message).toContain('  - "a00faf44" fits 2 venues:');
  });

  it('needs at least one venue', () => {
    expect(refusal(() => select(' , ')).message).toBe('--venues: --venues needs at least one venue');
  });
});

describe('--venues of sync and backfill: the config alone', () => {
  const config = resolveConfig({ scope: { venues: [{ id: CAFE, name: 'Café Central' }, NAMELESS, { id: NORTH_1.toUpperCase(), name: 'North Hostel' }] } }, {});

  it('takes the ids, id prefixes and names of scope.venues, each id spelled as the config spells it', () => {
    expect(selectConfigVenues(['Café Central,c0ffee00,a00faf44'], config)).toEqual([CAFE, NAMELESS, NORTH_1.toUpperCase()]);
    expect(selectConfigVenues(undefined, config)).toBeUndefined();
  });

  it('does not know names the config does not give, and says where names come from', () => {
    const error = refusal(() => selectConfigVenues(['Hostel, Lisbon'], config));
    expect(error.code).toBe('VENUE_ETL_UNKNOWN_VENUE');
    expect(error.hint).toContain('sync and backfill take the venues of scope.venues');
  });
});

describe('--venues of report, dashboard and reset where nothing is stored yet', () => {
  const dir = mkdtempSync(join(tmpdir(), 'venue-etl-selection-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const config = (warehouse: string) =>
    resolveConfig({ scope: { venues: [{ id: CAFE, name: 'Café Central' }] }, warehouse: { path: warehouse }, parquet: { dir: join(dir, 'parquet') } }, {});

  it('refuses a selection no venue of the config fits (exit 2), before the missing file is reported', () => {
    const missing = config(join(dir, 'missing.duckdb'));
    const error = refusal(() => checkVenuesWhereNothingIsStored(['venue-1'], missing));
    expect(error.code).toBe('VENUE_ETL_UNKNOWN_VENUE');
    expect(error.exitCode).toBe(2);
    expect(() => checkVenuesWhereNothingIsStored(['Café Central', 'b7c1d2e3', NAMELESS], missing)).not.toThrow();
    expect(() => checkVenuesWhereNothingIsStored(['venue-1'], missing, true)).toThrow(/"venue-1" is no venue's name/);
  });

  it('leaves names and prefixes to the open warehouse (or lake) where it exists', () => {
    const file = join(dir, 'warehouse.duckdb');
    writeFileSync(file, '');
    expect(() => checkVenuesWhereNothingIsStored(['venue-1'], config(file))).not.toThrow();
    const lake = resolveConfig({ parquet: { dir: 's3://bucket/lake' } }, {});
    expect(() => checkVenuesWhereNothingIsStored(['venue-1'], lake, true)).not.toThrow();
  });
});
