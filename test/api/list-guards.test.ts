/**
 * The guards every paged list goes through (docs/api-assumptions.md, "Lists read page by page"): a
 * links.next must name the same list (only page parameters may change), and a list must not hold
 * a resource twice. Legitimate servers (relative links, parameters reordered or encoded
 * otherwise, cursors, a page size the server changes) read to the end.
 */
import { describe, expect, it } from 'vitest';
import { ApiErrorCode, type JsonApiListDocument } from '../../src/api/index.js';
import { listChange } from '../../src/api/list-identity.js';
import { followPages } from '../../src/api/paginate.js';
import { canonicalJson, ResourceLedger } from '../../src/api/resource-ledger.js';
import { listDocument, rejectionOf, resource, sendJson, serverPerTest, testClient } from './helpers.js';

const ORIGIN = 'https://api.example.test';
const FIRST = `${ORIGIN}/core/venue-roles/?filter[venue]=v1&page[number]=1&page[size]=2`;

const url = (text: string): URL => new URL(text, ORIGIN);

describe('listChange', () => {
  const same = [
    ['page parameters only', '/core/venue-roles/?filter[venue]=v1&page[number]=2&page[size]=2'],
    ['another page size (the server clamps it)', '/core/venue-roles/?filter[venue]=v1&page[number]=2&page[size]=20'],
    ['a cursor instead of a number', '/core/venue-roles/?filter[venue]=v1&page[cursor]=eyJpZCI6MTJ9'],
    ['no page parameter at all', '/core/venue-roles/?filter[venue]=v1'],
    ['parameters in another order', '/core/venue-roles/?page[size]=2&page[number]=2&filter[venue]=v1'],
    ['brackets percent-encoded', '/core/venue-roles/?filter%5Bvenue%5D=v1&page%5Bnumber%5D=2'],
    ['a path segment percent-encoded', '/core/venue%2Droles/?filter[venue]=v1&page[number]=2'],
  ] as const;
  for (const [name, next] of same) {
    it(`same list: ${name}`, () => expect(listChange(url(FIRST), url(next))).toBeUndefined());
  }

  it('same list: a comma-delimited batch with its commas encoded, a space as + or %20', () => {
    const first = url('/accounts/filtered-accounts/?filter[id][in]=a,b,c&q=two words&page[number]=1');
    expect(listChange(first, url('/accounts/filtered-accounts/?filter[id][in]=a%2Cb%2Cc&q=two+words&page[number]=2'))).toBeUndefined();
    expect(listChange(first, url('/accounts/filtered-accounts/?q=two%20words&filter[id][in]=a,b,c&page[number]=2'))).toBeUndefined();
  });

  const other = [
    ['another filter value', '/core/venue-roles/?filter[venue]=v2&page[number]=2', 'changes filter[venue]'],
    ['the filter dropped', '/core/venue-roles/?page[number]=2', 'drops filter[venue]'],
    ['a parameter added', '/core/venue-roles/?filter[venue]=v1&sort=-name&page[number]=2', 'adds sort'],
    ['another path', '/core/project-roles/?filter[venue]=v1&page[number]=2', 'changes the path'],
    ['a trailing slash dropped', '/core/venue-roles?filter[venue]=v1&page[number]=2', 'changes the path'],
    ['an encoded slash in a segment', '/core%2Fvenue-roles/?filter[venue]=v1&page[number]=2', 'changes the path'],
    ['a value in other letters', '/core/venue-roles/?filter[venue]=V1&page[number]=2', 'changes filter[venue]'],
    ['a filter given twice', '/core/venue-roles/?filter[venue]=v1&filter[venue]=v2&page[number]=2', 'changes filter[venue]'],
  ] as const;
  for (const [name, next, change] of other) {
    it(`another list: ${name}`, () => expect(listChange(url(FIRST), url(next))).toBe(change));
  }

  it('names parameters, never their values (a value may be a credential)', () => {
    expect(listChange(url(FIRST), url('/core/venue-roles/?filter[venue]=v1&api_key=s3cret&page[number]=2'))).toBe('adds api_key');
  });
});

describe('ResourceLedger', () => {
  const page = (resources: readonly unknown[]): JsonApiListDocument => listDocument(resources) as unknown as JsonApiListDocument;

  it('passes distinct resources; the same id under another type is another resource', () => {
    const ledger = new ResourceLedger();
    expect(ledger.check(page([resource('a', 'venue-roles'), resource('b', 'venue-roles')]), 1)).toBeUndefined();
    expect(ledger.check(page([resource('a', 'project-roles'), resource('c', 'venue-roles')]), 2)).toBeUndefined();
  });

  it('a resource again with the same content (keys in another order) is repeated; with other content, contradictory', () => {
    const ledger = new ResourceLedger();
    ledger.check(page([{ type: 'venue-roles', id: 'a', attributes: { name: 'owner', permissions: ['x'] } }]), 1);
    expect(ledger.check(page([resource('b', 'venue-roles'), { id: 'a', attributes: { permissions: ['x'], name: 'owner' }, type: 'venue-roles' }]), 2)).toEqual({
      kind: 'repeated',
      type: 'venue-roles',
      id: 'a',
      first: { page: 1, index: 0 },
      again: { page: 2, index: 1 },
    });
    const other = new ResourceLedger();
    other.check(page([{ type: 'venue-roles', id: 'a', attributes: { name: 'owner' } }]), 1);
    expect(other.check(page([{ type: 'venue-roles', id: 'a', attributes: { name: 'reader' } }]), 2)?.kind).toBe('contradictory');
  });

  it('catches a repeat within one page', () => {
    const ledger = new ResourceLedger();
    expect(ledger.check(page([resource('a'), resource('b'), resource('a')]), 1)).toMatchObject({
      kind: 'repeated',
      first: { index: 0 },
      again: { page: 1, index: 2 },
    });
  });

  it('canonicalJson sorts keys at every level and keeps array order', () => {
    expect(canonicalJson({ b: [2, { d: 1, c: null }], a: 'x', u: undefined })).toBe('{"a":"x","b":[2,{"c":null,"d":1}]}');
  });
});

/** Serves `pages` (the answer to each URL, by its path and query) to followPages, counting requests. */
function pagesOf(answers: Readonly<Record<string, { ids: readonly string[]; next?: string | null; names?: Readonly<Record<string, string>> }>>) {
  const requested: string[] = [];
  const fetchPage = async (at: URL): Promise<JsonApiListDocument> => {
    const key = `${at.pathname}${at.search}`;
    requested.push(key);
    const answer = answers[key];
    if (!answer) throw new Error(`no page for ${key}`);
    const resources = answer.ids.map((id) => resource(id, 'venue-roles', { name: answer.names?.[id] ?? 'owner' }));
    return listDocument(resources, { next: answer.next ?? null }) as unknown as JsonApiListDocument;
  };
  const read = async (): Promise<string[]> => {
    const ids: string[] = [];
    for await (const page of followPages(url(FIRST), fetchPage, { origin: ORIGIN, maxPages: 50, stream: 'venue-roles' }))
      ids.push(...page.data.map((r) => r.id));
    return ids;
  };
  return { requested, read };
}

const P1 = '/core/venue-roles/?filter[venue]=v1&page[number]=1&page[size]=2';

describe('followPages: legitimate servers read to the end', () => {
  it('relative links, reordered and encoded parameters, a cursor, and a page size the server changes', async () => {
    const { read, requested } = pagesOf({
      [P1]: { ids: ['a', 'b'], next: '?page[number]=2&filter[venue]=v1&page[size]=2' },
      '/core/venue-roles/?page[number]=2&filter[venue]=v1&page[size]=2': {
        ids: ['c', 'd'],
        next: '/core/venue-roles/?filter%5Bvenue%5D=v1&page%5Bcursor%5D=x3',
      },
      '/core/venue-roles/?filter%5Bvenue%5D=v1&page%5Bcursor%5D=x3': {
        ids: ['e'],
        next: `${ORIGIN}/core/venue-roles/?filter[venue]=v1&page[cursor]=x4&page[size]=50`,
      },
      '/core/venue-roles/?filter[venue]=v1&page[cursor]=x4&page[size]=50': { ids: ['f'], next: null },
    });
    expect(await read()).toEqual(['a', 'b', 'c', 'd', 'e', 'f']);
    expect(requested).toHaveLength(4);
  });
});

describe('followPages: lying pages fail the list before anything is handed on', () => {
  it("a links.next to another venue's list is not followed (VENUE_API_PAGINATION_LINK)", async () => {
    const { read, requested } = pagesOf({
      [P1]: { ids: ['a', 'b'], next: `${ORIGIN}/core/venue-roles/?filter[venue]=v2&page[number]=50&page[size]=2` },
    });
    const error = await rejectionOf(read());
    expect(error.code).toBe(ApiErrorCode.paginationLink);
    expect(error.message).toBe(
      'venue-roles: GET /core/venue-roles/?filter[venue]=v1&page[number]=1&page[size]=2: links.next on page 1 leaves the list (it changes filter[venue]); ' +
        'links.next /core/venue-roles/?filter[venue]=v2&page[number]=50&page[size]=2 was not followed',
    );
    expect(error.details).toMatchObject({ retriable: false, stream: 'venue-roles', pages: 1, change: 'changes filter[venue]' });
    expect(error.hint).toMatch(/page\[…\]/);
    expect(requested).toEqual([P1]);
  });

  it("page 2 repeating page 1's first resource (VENUE_API_PAGINATION_DUPLICATE)", async () => {
    const P2 = '/core/venue-roles/?filter[venue]=v1&page[number]=2&page[size]=2';
    const { read } = pagesOf({ [P1]: { ids: ['a', 'b'], next: P2 }, [P2]: { ids: ['a', 'd'], next: null } });
    const error = await rejectionOf(read());
    expect(error.code).toBe(ApiErrorCode.paginationDuplicate);
    expect(error.message).toContain(
      'venue-roles a at page 2 data[0] was already listed at page 1 data[0]: the list changed or repeated itself while it was paged',
    );
    expect(error.details).toMatchObject({ retriable: false, type: 'venue-roles', id: 'a', first: { page: 1, index: 0 }, again: { page: 2, index: 0 } });
  });

  it('a resource listed twice with other content (VENUE_API_CONTRADICTORY_VALUES)', async () => {
    const P2 = '/core/venue-roles/?filter[venue]=v1&page[number]=2&page[size]=2';
    const { read } = pagesOf({ [P1]: { ids: ['a', 'b'], next: P2 }, [P2]: { ids: ['c', 'a'], next: null, names: { a: 'reader' } } });
    const error = await rejectionOf(read());
    expect(error.code).toBe(ApiErrorCode.contradictoryValues);
    expect(error.message).toContain('venue-roles a at page 2 data[1] was already listed at page 1 data[0], with other content');
  });

  it('the loop check still names a whole page repeated as a loop', async () => {
    const P2 = '/core/venue-roles/?filter[venue]=v1&page[number]=2&page[size]=2';
    const P3 = '/core/venue-roles/?filter[venue]=v1&page[number]=3&page[size]=2';
    const { read } = pagesOf({ [P1]: { ids: ['a', 'b'], next: P2 }, [P2]: { ids: ['a', 'b'], next: P3 } });
    expect((await rejectionOf(read())).code).toBe(ApiErrorCode.paginationLoop);
  });
});

describe('through the client', () => {
  const serve = serverPerTest();

  it('accounts batches get the same checks: a next link that drops the batch filter fails with nothing requested from it', async () => {
    let origin = '';
    const api = await serve((_req, res) =>
      sendJson(res, 200, listDocument([resource('a1')], { next: `${origin}/accounts/filtered-accounts/?page[number]=2&page[size]=1` })),
    );
    origin = api.url;
    const client = testClient(api.url);
    const pages = async () => {
      for await (const _page of client.paginate('/accounts/filtered-accounts/?filter[id][in]=a1,a2&page[number]=1&page[size]=1', {
        pageSize: 1,
        stream: 'accounts',
      }));
    };
    const error = await rejectionOf(pages());
    expect(error.code).toBe(ApiErrorCode.paginationLink);
    expect(error.message).toContain('(it drops filter[id][in])');
    expect(api.requests).toHaveLength(1);
    await client.close();
  });
});
