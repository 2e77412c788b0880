/**
 * The split of a config's venues into shards (`--shard I/N`): the assignment by venue id, its
 * validation, and what a sharded run plans (venue streams over the shard's venues; roles and
 * accounts on shard 0 only, for every venue).
 */
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../src/catalogue/index.js';
import { requireApi, resolveConfig } from '../../src/config/index.js';
import { UsageError } from '../../src/errors/index.js';
import { planBackfillRun } from '../../src/runner/backfill-job.js';
import { resolveScope, sharedStreams } from '../../src/runner/scope.js';
import { parseShard, shardOfVenue, venuesOfShard, type Shard } from '../../src/runner/shard.js';

const venueId = (i: number): string => `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
const THOUSAND = Array.from({ length: 1000 }, (_, i) => venueId(i));
const PROJECT = '10000000-0000-4000-8000-000000000001';

function shardsOf(count: number): Shard[] {
  return Array.from({ length: count }, (_, index) => ({ index, count }));
}

describe('shard assignment by venue id', () => {
  it('splits 1,000 ids into disjoint shards whose union is every id, roughly evenly', () => {
    for (const count of [1, 2, 3, 10]) {
      const parts = shardsOf(count).map((shard) => venuesOfShard(THOUSAND, shard));
      const seen = parts.flat();
      expect(seen).toHaveLength(THOUSAND.length);
      expect(new Set(seen)).toEqual(new Set(THOUSAND));
      // Binomial(1000, 1/N): four standard deviations either side of 1000/N.
      const mean = 1000 / count;
      const spread = 4 * Math.sqrt(1000 * (1 / count) * (1 - 1 / count));
      for (const part of parts) {
        expect(part.length).toBeGreaterThanOrEqual(Math.floor(mean - spread));
        expect(part.length).toBeLessThanOrEqual(Math.ceil(mean + spread));
      }
    }
  });

  it('depends on the id and N only: not on the order or number of the other venues, nor the id case', () => {
    const shard = { index: 1, count: 3 };
    const all = new Set(venuesOfShard(THOUSAND, shard));
    expect(new Set(venuesOfShard([...THOUSAND].reverse(), shard))).toEqual(all);
    const some = THOUSAND.filter((_, i) => i % 7 === 0);
    expect(venuesOfShard(some, shard)).toEqual(some.filter((id) => all.has(id)));
    for (const id of THOUSAND.slice(0, 50)) expect(shardOfVenue(id.toUpperCase(), 3)).toBe(shardOfVenue(id, 3));
  });
});

describe('parseShard', () => {
  it('reads I/N, 0-based', () => {
    expect(parseShard('0/3', '--shard')).toEqual({ index: 0, count: 3 });
    expect(parseShard('2/3', '--shard')).toEqual({ index: 2, count: 3 });
    expect(parseShard('0/1', '--shard')).toEqual({ index: 0, count: 1 });
  });

  it.each([
    ['3/3', /shard 3 does not exist in 3 shards \(they are numbered 0 to 2\)/],
    ['0/0', /N must be between 1 and/],
    ['1', /must be I\/N/],
    ['-1/3', /must be I\/N/],
    ['a/b', /must be I\/N/],
    ['1/2/3', /must be I\/N/],
    ['', /must be I\/N/],
  ])('refuses "%s" with a usage error and a hint', (text, message) => {
    let caught: unknown;
    try {
      parseShard(text, '--shard');
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(UsageError);
    expect((caught as UsageError).message).toMatch(message);
    expect((caught as UsageError).hint).toMatch(/--shard 0\/3/);
  });
});

describe('a sharded scope', () => {
  const venues = THOUSAND.slice(0, 30);
  const config = requireApi(
    resolveConfig({ api: { baseUrl: 'http://127.0.0.1:1', token: '${TOKEN}' }, scope: { venues, projects: [PROJECT] } }, { TOKEN: 'tok-1' }),
  );
  const catalogue = buildCatalogue();

  it('counts project roles, accounts and the venue roles the accounts are looked up from as shared', () => {
    expect([...sharedStreams(catalogue)].sort()).toEqual(['accounts', 'project-roles', 'venue-roles']);
  });

  it("plans the venue streams over the shard's venues and the shared streams on shard 0 only, for every venue", () => {
    const shared = sharedStreams(catalogue);
    const whole = resolveScope(config, catalogue, 'all');
    const scopes = shardsOf(3).map((shard) => resolveScope(config, catalogue, 'all', undefined, undefined, shard));
    for (const [index, scope] of scopes.entries()) {
      expect(scope.venues).toEqual(venuesOfShard(venues, { index, count: 3 }));
      const own = scope.parts.find((part) => part.streams.some((stream) => !shared.has(stream)));
      expect(own?.venues).toEqual(scope.venues);
      expect(own?.projects).toEqual([]);
      const common = scope.parts.filter((part) => part.streams.some((stream) => shared.has(stream)));
      if (index === 0) {
        expect(common).toEqual([{ streams: whole.streams.filter((s) => shared.has(s)), venues, projects: [PROJECT] }]);
      } else {
        expect(common).toEqual([]);
        expect(scope.projects).toEqual([]);
      }
    }
    // Together the shards cover each (stream, scope id) of the whole scope exactly once.
    const idsOf = (stream: string, part: (typeof whole.parts)[number]): readonly string[] => {
      const scope = catalogue.endpointFor(stream).scope;
      return scope === 'venue' ? part.venues : scope === 'project' ? part.projects : ['*'];
    };
    const pairs = (parts: typeof whole.parts): string[] =>
      parts.flatMap((part) => part.streams.flatMap((stream) => idsOf(stream, part).map((id) => `${stream}|${id}`)));
    const covered = scopes.flatMap((scope) => pairs(scope.parts));
    expect(covered.sort()).toEqual(pairs(whole.parts).sort());
  });

  it('gives each shard of a backfill its own id, and keeps the unsharded id', () => {
    const range = { from: '2026-01-01', to: '2026-01-31', now: new Date('2026-03-01T12:00:00Z') };
    const unsharded = planBackfillRun(config, range).backfillId;
    const ids = shardsOf(3).map((shard) => planBackfillRun(config, { ...range, shard }).backfillId);
    expect(new Set([unsharded, ...ids]).size).toBe(4);
    expect(planBackfillRun(config, { ...range, shard: { index: 0, count: 1 } }).params).toMatchObject({ shard: '0/1' });
    expect(planBackfillRun(config, range).params).not.toHaveProperty('shard');
  });
});
