import { describe, expect, it } from 'vitest';
import { ApiErrorCode, type ApiClient, type JsonApiListDocument } from '../../src/api/index.js';
import { listDocument, rejectionOf, resource, sendJson, serverPerTest, singleDocument, testClient, type Handler } from './helpers.js';

const serve = serverPerTest();

async function collect(client: ApiClient, path: string, pageSize: number): Promise<JsonApiListDocument[]> {
  const pages: JsonApiListDocument[] = [];
  for await (const page of client.paginate(path, { pageSize, stream: 'venue-roles' })) pages.push(page);
  return pages;
}

/** Serves `total` roles in pages as docs/api.md §8 describes, with absolute links. */
function pagedRoles(total: number, origin: () => string): Handler {
  return (req, res) => {
    const url = new URL(req.url ?? '/', origin());
    const number = Number(url.searchParams.get('page[number]'));
    const size = Number(url.searchParams.get('page[size]'));
    const last = Math.max(1, Math.ceil(total / size));
    const link = (n: number) => `${origin()}/core/venue-roles/?filter[venue]=v1&page[number]=${n}&page[size]=${size}`;
    const items = Array.from({ length: Math.max(0, Math.min(size, total - (number - 1) * size)) }, (_, i) =>
      resource(`role-${(number - 1) * size + i}`, 'venue-roles'),
    );
    sendJson(
      res,
      200,
      listDocument(items, {
        self: link(number),
        first: link(1),
        last: link(last),
        previous: number > 1 ? link(number - 1) : null,
        next: number < last ? link(number + 1) : null,
      }),
    );
  };
}

describe('pagination', () => {
  it('follows links.next over every page and collects everything', async () => {
    let origin = '';
    const api = await serve(pagedRoles(14, () => origin));
    origin = api.url;
    const client = testClient(api.url);
    const pages = await collect(client, '/core/venue-roles/?filter[venue]=v1', 3);
    expect(pages).toHaveLength(5);
    expect(pages.flatMap((page) => page.data.map((r) => r.id))).toEqual(Array.from({ length: 14 }, (_, i) => `role-${i}`));
    expect(api.requests[0]!.url).toBe('/core/venue-roles/?filter[venue]=v1&page[number]=1&page[size]=3');
    expect(client.stats.pages).toBe(5);
    expect(client.stats.byStream.get('venue-roles')?.pages).toBe(5);
    await client.close();
  });

  it('treats a list without links as a single page', async () => {
    const api = await serve((_req, res) => sendJson(res, 200, listDocument([resource('a')])));
    const client = testClient(api.url);
    const pages = await collect(client, '/statistics/rating-statistics-summaries/?filter[venue]=v1', 100);
    expect(pages).toHaveLength(1);
    expect(api.requests).toHaveLength(1);
    await client.close();
  });

  it('refuses a next link to another origin; that server receives nothing', async () => {
    const other = await serve((_req, res) => sendJson(res, 200, listDocument([])));
    const api = await serve((_req, res) => sendJson(res, 200, listDocument([resource('a')], { next: `${other.url}/core/venue-roles/?page[number]=2` })));
    const client = testClient(api.url);
    const error = await rejectionOf(collect(client, '/core/venue-roles/', 1));
    expect(error.code).toBe(ApiErrorCode.foreignLink);
    expect(error.message).toContain(other.url);
    expect(other.requests).toHaveLength(0);
    expect(api.requests).toHaveLength(1);
    await client.close();
  });

  it('stops when the same next link comes twice', async () => {
    let origin = '';
    const api = await serve((_req, res) =>
      sendJson(res, 200, listDocument([resource('a')], { next: `${origin}/core/venue-roles/?page[number]=2&page[size]=1` })),
    );
    origin = api.url;
    const client = testClient(api.url);
    const error = await rejectionOf(collect(client, '/core/venue-roles/', 1));
    expect(error.code).toBe(ApiErrorCode.paginationLoop);
    expect(error.message).toContain('/core/venue-roles/?page[number]=2&page[size]=1');
    expect(api.requests).toHaveLength(2);
    await client.close();
  });

  it('stops at the page cap with a clear error', async () => {
    let origin = '';
    const api = await serve((_req, res, index) =>
      sendJson(res, 200, listDocument([resource(`r${index}`)], { next: `${origin}/core/venue-roles/?page[number]=${index + 2}` })),
    );
    origin = api.url;
    const client = testClient(api.url, { maxPages: 3 });
    const error = await rejectionOf(collect(client, '/core/venue-roles/', 1));
    expect(error.code).toBe(ApiErrorCode.tooManyPages);
    expect(error.message).toContain('still had a links.next after 3 pages (api.maxPages)');
    expect(api.requests).toHaveLength(3);
    await client.close();
  });

  it('refuses a single resource where a list is expected', async () => {
    const api = await serve((_req, res) => sendJson(res, 200, singleDocument()));
    const client = testClient(api.url);
    const error = await rejectionOf(collect(client, '/core/venue-roles/', 10));
    expect(error.code).toBe(ApiErrorCode.schema);
    await client.close();
  });
});
