/**
 * Lying pages of the roles lists, end to end (docs/api-assumptions.md, docs/warehouse.md): the built CLI syncs the roles and
 * accounts of 3 venues with `api.pageSize: 2` (13 current venue roles, 3 project roles) through a
 * proxy in front of the simulator that rewrites the lists. A links.next that leaves the list, a
 * resource listed twice or a role listed twice with other content fails its slice and changes
 * nothing; an answer that would close most of a scope's roles is held until the next run says
 * the same.
 */
import { afterEach, beforeAll, expect, it } from 'vitest';
import { assertBuilt, describeRun, queryRows, startFixture, TEST_NOW, type CliResult, type Fixture } from './harness.js';
import { startMutatingProxy, type TestHost, type Upstream } from './mutating-proxy.js';
import { snapshotsHeldOf } from '../../src/warehouse/index.js';
import { expectedRoles, storedRoles } from './truth.js';

/** Each case runs the CLI two to four times; on a loaded 2-core machine one sync took up to 20 s. */
const E2E_TIMEOUT_MS = 240_000;
let fx: Fixture | undefined;
let proxy: TestHost | undefined;
beforeAll(assertBuilt);
afterEach(async () => {
  await proxy?.close();
  proxy = undefined;
  await fx?.close();
  fx = undefined;
});

type Lie = (url: URL, forward: (path?: string) => Promise<Upstream>) => Promise<Upstream | undefined>;

interface ListDocument {
  data: { id: string; attributes: Record<string, unknown> }[];
  links?: { next?: string | null };
}

const ROLES = ['venue-roles', 'project-roles', 'accounts'];

/** A fixture whose API is the simulator behind a proxy; `lie` (when set) may rewrite an answer. */
async function lyingFixture(): Promise<{ fx: Fixture; setLie: (lie: Lie | undefined) => void; sync: () => Promise<CliResult> }> {
  // Seed 25: venues of 5, 4 and 4 roles and a project of 3, as in the reproduction.
  const fixture = await startFixture({ sim: { seed: 25, venues: 3 } });
  let lie: Lie | undefined;
  proxy = await startMutatingProxy(fixture.sim.url, async (req, res, forwardAsIs) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    // The simulator's links name the address it was asked at: the proxy's, as a proxy would.
    const forward = async (path?: string): Promise<Upstream> => {
      const upstream = await forwardAsIs(path);
      return { ...upstream, body: Buffer.from(upstream.body.toString('utf8').replaceAll(fixture.sim.url, proxy!.url)) };
    };
    const answer = (await lie?.(url, forward)) ?? (await forward());
    // The simulator's clock (the tests' noon), not this server's: no clock-skew warning.
    res.writeHead(answer.status, { 'content-type': answer.contentType, date: new Date(TEST_NOW).toUTCString() }).end(answer.body);
  });
  const configPath = fixture.writeConfig({ api: { baseUrl: proxy.url, pageSize: 2, maxRetries: 1 } });
  return {
    fx: fixture,
    setLie: (next) => {
      lie = next;
    },
    sync: () => fixture.cli(['sync', '--streams', ROLES.join(',')], { configPath, timeoutMs: 60_000 }),
  };
}

function rewrite(upstream: Upstream, change: (document: ListDocument) => void): Upstream {
  const document = JSON.parse(upstream.body.toString('utf8')) as ListDocument;
  change(document);
  return { ...upstream, body: Buffer.from(JSON.stringify(document)) };
}

const pageNumber = (url: URL): number => Number(url.searchParams.get('page[number]') ?? '1');

async function counts(path: string): Promise<{ venue: number; project: number }> {
  const roles = await storedRoles(path);
  return { venue: roles.venue.size, project: roles.project.size };
}

/** One line per case for RELIABILITY.md: what the run did to the roles. */
async function figure(name: string, run: CliResult, path: string): Promise<void> {
  const { venue, project } = await counts(path);
  const errors = await syncErrors(path);
  const codes = [...new Set(errors.map((error) => `${error.stream} ${error.code}`))].join(', ') || 'none';
  const warned = run.stderr.split('\n').filter((line) => /"level":40/.test(line)).length;
  console.log(
    `${name}: exit ${run.code}, venue roles 13 -> ${venue}, project roles 3 -> ${project}, sync_errors ${errors.length} (${codes}), warnings ${warned}`,
  );
}

async function syncErrors(path: string): Promise<{ stream: string; code: string }[]> {
  const rows = await queryRows(path, 'SELECT stream, error_code AS code FROM sync_errors ORDER BY stream, scope_id');
  return rows.map((row) => ({ stream: String(row.stream), code: String(row.code) }));
}

/** The clean first run every case starts from: the 13 venue roles and 3 project roles. */
async function loadClean(sync: () => Promise<CliResult>, fixture: Fixture): Promise<void> {
  const run = await sync();
  expect(run.code, describeRun(run)).toBe(0);
  const truth = expectedRoles(fixture.sim, fixture.venues, fixture.projects);
  expect({ venue: truth.venue.size, project: truth.project.size }).toEqual({ venue: 13, project: 3 });
  expect(await counts(fixture.warehousePath)).toEqual({ venue: 13, project: 3 });
}

it(
  '(a) a links.next to another venue`s list fails the venue-roles slices; no role is closed',
  async () => {
    const { fx: fixture, setLie, sync } = await lyingFixture();
    fx = fixture;
    await loadClean(sync, fixture);
    // Page 1's next names the same path filtered to another venue, on a page past its end (empty).
    setLie(async (url, forward) => {
      if (url.pathname !== '/core/venue-roles/' || pageNumber(url) !== 1) return undefined;
      const other = fixture.venues.find((venue) => venue !== url.searchParams.get('filter[venue]'));
      return rewrite(await forward(), (document) => {
        document.links = { ...document.links, next: `${proxy!.url}/core/venue-roles/?filter[venue]=${other}&page[number]=50&page[size]=2` };
      });
    });
    const run = await sync();
    await figure('(a) links.next to another list', run, fixture.warehousePath);
    expect(run.code, describeRun(run)).toBe(3);
    expect(await syncErrors(fixture.warehousePath)).toEqual(fixture.venues.map(() => ({ stream: 'venue-roles', code: 'VENUE_API_PAGINATION_LINK' })));
    expect(run.stderr).toMatch(/links\.next .*filter\[venue\]/);
    expect(await counts(fixture.warehousePath)).toEqual({ venue: 13, project: 3 });
  },
  E2E_TIMEOUT_MS,
);

it(
  '(b) page 2 repeating page 1`s first resource fails each list it touches; no role is closed',
  async () => {
    const { fx: fixture, setLie, sync } = await lyingFixture();
    fx = fixture;
    await loadClean(sync, fixture);
    // Every page 2 of a roles or accounts list holds page 1's first resource in place of its own.
    setLie(async (url, forward) => {
      if (!/^\/(core\/(venue|project)-roles|accounts\/filtered-accounts)\/$/.test(url.pathname) || pageNumber(url) !== 2) return undefined;
      const first = new URL(url);
      first.searchParams.set('page[number]', '1');
      const page1 = JSON.parse((await forward(`${first.pathname}${first.search}`)).body.toString('utf8')) as ListDocument;
      return rewrite(await forward(), (document) => {
        if (document.data.length > 0 && page1.data[0]) document.data[0] = page1.data[0];
      });
    });
    const run = await sync();
    await figure('(b) page 2 repeats page 1', run, fixture.warehousePath);
    // Every slice of these streams failed, so the run did nothing: failed (exit 1), not partial.
    expect(run.code, describeRun(run)).toBe(1);
    const errors = await syncErrors(fixture.warehousePath);
    expect(errors.length, describeRun(run)).toBeGreaterThan(0);
    expect(new Set(errors.map((error) => error.code))).toEqual(new Set(['VENUE_API_PAGINATION_DUPLICATE']));
    // Every venue (13 roles over 3 venues: each has a page 2) and the project with 3 roles.
    expect(errors.filter((error) => error.stream === 'venue-roles')).toHaveLength(3);
    expect(errors.filter((error) => error.stream === 'project-roles')).toHaveLength(1);
    // The accounts list goes through the same page loop.
    expect(errors.filter((error) => error.stream === 'accounts')).toHaveLength(1);
    expect(await counts(fixture.warehousePath)).toEqual({ venue: 13, project: 3 });
  },
  E2E_TIMEOUT_MS,
);

it(
  '(c) an empty roles answer is held for a run, then applied when the next run says the same',
  async () => {
    const { fx: fixture, setLie, sync } = await lyingFixture();
    fx = fixture;
    await loadClean(sync, fixture);
    const venue = fixture.venues[0]!;
    const open = expectedRoles(fixture.sim, [venue], []).venue.size;
    setLie(async (url, forward) => {
      if (url.pathname !== '/core/venue-roles/' || url.searchParams.get('filter[venue]') !== venue) return undefined;
      return rewrite(await forward(), (document) => {
        document.data = [];
        document.links = { ...document.links, next: null };
      });
    });
    const held = await sync();
    await figure('(c) empty answer, first run', held, fixture.warehousePath);
    expect(held.code, describeRun(held)).toBe(0);
    expect(held.stderr).toMatch(new RegExp(`would close ${open} of ${open} open venue-roles of ${venue}`));
    expect(await counts(fixture.warehousePath)).toEqual({ venue: 13, project: 3 });
    // The query docs/warehouse.md gives a notification: the held snapshots of every run that had some.
    const runs = await queryRows(
      fixture.warehousePath,
      `SELECT run_id, finished_at, detail->'snapshotsHeld' AS held FROM sync_runs WHERE detail->>'snapshotsHeldTotal' IS NOT NULL ORDER BY run_id DESC`,
    );
    expect(runs).toHaveLength(1);
    const [first] = await queryRows(fixture.warehousePath, `SELECT detail FROM sync_runs ORDER BY started_at DESC LIMIT 1`);
    const record = { stream: 'venue-roles', scope: venue, open, wouldClose: open, heldSince: expect.any(String) };
    expect(JSON.parse(String(runs[0]!.held))).toEqual([record]);
    expect(snapshotsHeldOf(JSON.parse(String(first!.detail)))).toEqual([record]);
    expect(held.stdout).toMatch(/VENUE_ROLES_SNAPSHOT_HELD: 1 roles answer would close most/);

    // The next run reads the same empty list: now it is taken at its word.
    const confirmed = await sync();
    await figure('(c) empty answer, second run', confirmed, fixture.warehousePath);
    expect(confirmed.code, describeRun(confirmed)).toBe(0);
    expect(await counts(fixture.warehousePath)).toEqual({ venue: 13 - open, project: 3 });
    const [second] = await queryRows(fixture.warehousePath, `SELECT detail FROM sync_runs ORDER BY started_at DESC LIMIT 1`);
    expect(JSON.parse(String(second!.detail)).snapshotsConfirmed).toEqual([record]);
    expect(await queryRows(fixture.warehousePath, 'SELECT * FROM role_snapshot_holds')).toEqual([]);
  },
  E2E_TIMEOUT_MS,
);

it(
  '(c) a held answer the next run does not repeat is dropped: the roles stay as the API lists them',
  async () => {
    const { fx: fixture, setLie, sync } = await lyingFixture();
    fx = fixture;
    await loadClean(sync, fixture);
    const venue = fixture.venues[1]!;
    setLie(async (url, forward) => {
      if (url.pathname !== '/core/venue-roles/' || url.searchParams.get('filter[venue]') !== venue) return undefined;
      return rewrite(await forward(), (document) => {
        document.data = [];
        document.links = { ...document.links, next: null };
      });
    });
    expect((await sync()).code).toBe(0);
    setLie(undefined);
    const honest = await sync();
    expect(honest.code, describeRun(honest)).toBe(0);
    expect(await counts(fixture.warehousePath)).toEqual({ venue: 13, project: 3 });
    const rows = await queryRows(fixture.warehousePath, 'SELECT count(*)::INTEGER AS n FROM venue_roles WHERE valid_to IS NOT NULL');
    expect(rows[0]!.n).toBe(0);
    // The empty answer, once more after an honest one, is held again (not confirmed by the old hold).
    setLie(async (url, forward) => {
      if (url.pathname !== '/core/venue-roles/' || url.searchParams.get('filter[venue]') !== venue) return undefined;
      return rewrite(await forward(), (document) => {
        document.data = [];
        document.links = { ...document.links, next: null };
      });
    });
    expect((await sync()).code).toBe(0);
    expect(await counts(fixture.warehousePath)).toEqual({ venue: 13, project: 3 });
  },
  E2E_TIMEOUT_MS,
);

it(
  'a role listed twice with other content fails that venue`s slice only (VENUE_API_CONTRADICTORY_VALUES)',
  async () => {
    const { fx: fixture, setLie, sync } = await lyingFixture();
    fx = fixture;
    await loadClean(sync, fixture);
    const venue = fixture.venues[2]!;
    // Page 2 of one venue repeats page 1's first role under another name.
    setLie(async (url, forward) => {
      if (url.pathname !== '/core/venue-roles/' || url.searchParams.get('filter[venue]') !== venue || pageNumber(url) !== 2) return undefined;
      const first = new URL(url);
      first.searchParams.set('page[number]', '1');
      const page1 = JSON.parse((await forward(`${first.pathname}${first.search}`)).body.toString('utf8')) as ListDocument;
      return rewrite(await forward(), (document) => {
        const copy = structuredClone(page1.data[0]!);
        copy.attributes.name = `${String(copy.attributes.name)} (renamed)`;
        document.data[0] = copy;
      });
    });
    const run = await sync();
    await figure('role listed twice, other content', run, fixture.warehousePath);
    expect(run.code, describeRun(run)).toBe(3);
    expect(run.stderr).not.toMatch(/VENUE_WAREHOUSE_INVALID_BATCH|VENUE_ETL_INTERNAL/);
    const rows = await queryRows(fixture.warehousePath, 'SELECT stream, scope_id::VARCHAR AS scope, error_code AS code FROM sync_errors');
    expect(rows).toEqual([{ stream: 'venue-roles', scope: venue, code: 'VENUE_API_CONTRADICTORY_VALUES' }]);
    expect(await counts(fixture.warehousePath)).toEqual({ venue: 13, project: 3 });
  },
  E2E_TIMEOUT_MS,
);
