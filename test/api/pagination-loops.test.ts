import { describe, expect, it } from 'vitest';
import { ApiErrorCode, DEFAULT_MAX_PAGES, type ApiClient } from '../../src/api/index.js';
import { ConfigSchema } from '../../src/config/schema.js';
import { listDocument, rejectionOf, resource, sendJson, serverPerTest, testClient, TOKEN, type Handler } from './helpers.js';

const serve = serverPerTest();
const ROLES = '/core/venue-roles/?filter[venue]=v1';

async function drain(client: ApiClient, path = ROLES, pageSize = 2): Promise<number> {
  let pages = 0;
  for await (const _page of client.paginate(path, { pageSize, stream: 'venue-roles' })) pages += 1;
  return pages;
}

/** A server whose links.next never ends; `page(n)` gives the resources and next query of answer n. */
async function endless(page: (n: number) => { ids: readonly string[]; next: string }) {
  let origin = '';
  const handler: Handler = (_req, res, index) => {
    const { ids, next } = page(index + 1);
    sendJson(
      res,
      200,
      listDocument(
        ids.map((id) => resource(id, 'venue-roles')),
        { next: `${origin}/core/venue-roles/?${next}` },
      ),
    );
  };
  const api = await serve(handler);
  origin = api.url;
  return api;
}

describe('pagination loops are caught before api.maxPages', () => {
  it('the same resources again under a changing link: stopped after the second page', async () => {
    const api = await endless((n) => ({ ids: ['a', 'b'], next: `filter[venue]=v1&page[number]=${n + 1}&page[size]=2&page[ts]=${n}` }));
    const client = testClient(api.url);
    const error = await rejectionOf(drain(client));
    expect(error.code).toBe(ApiErrorCode.paginationLoop);
    expect(error.message).toBe(
      'venue-roles: GET /core/venue-roles/?filter[venue]=v1&page[number]=1&page[size]=2: pagination loops after 2 pages: page 2 holds the same 2 resources as page 1; ' +
        'links.next /core/venue-roles/?filter[venue]=v1&page[number]=3&page[size]=2&page[ts]=2 was not followed',
    );
    expect(error.details).toMatchObject({ retriable: false, stream: 'venue-roles', pages: 2, loop: 'same-resources' });
    expect(api.requests).toHaveLength(2);
    await client.close();
  });

  it('page[number] that does not advance: stopped after the first page', async () => {
    const api = await endless((n) => ({ ids: [`r${n}`], next: `filter[venue]=v1&page[number]=1&page[size]=2&page[cursor]=${n}` }));
    const client = testClient(api.url);
    const error = await rejectionOf(drain(client));
    expect(error.code).toBe(ApiErrorCode.paginationLoop);
    expect(error.message).toContain('pagination loops after 1 page: links.next asks for page[number]=1 after page[number]=1');
    expect(api.requests).toHaveLength(1);
    await client.close();
  });

  it('empty pages that keep pointing further: stopped after the second', async () => {
    const api = await endless((n) => ({ ids: [], next: `filter[venue]=v1&page[number]=${n + 1}&page[size]=2` }));
    const client = testClient(api.url);
    const error = await rejectionOf(drain(client));
    expect(error.message).toContain('page 2 holds the same nothing as page 1');
    expect(api.requests).toHaveLength(2);
    await client.close();
  });

  it('a list with distinct pages and growing page numbers is read to its end', async () => {
    let origin = '';
    const api = await serve((req, res) => {
      const n = Number(new URL(req.url ?? '/', origin).searchParams.get('page[number]'));
      const next = n < 40 ? `${origin}/core/venue-roles/?filter[venue]=v1&page[number]=${n + 1}&page[size]=2` : null;
      sendJson(res, 200, listDocument([resource(`r${2 * n}`, 'venue-roles'), resource(`r${2 * n + 1}`, 'venue-roles')], { next }));
    });
    origin = api.url;
    const client = testClient(api.url);
    expect(await drain(client)).toBe(40);
    await client.close();
  });
});

describe('api.maxPages', () => {
  it('a links.next that never repeats anything stops at the default cap, naming the stream, the scope and the last link without the token', async () => {
    const api = await endless((n) => ({ ids: [`r${n}`], next: `filter[venue]=v1&page[number]=${n + 1}&page[size]=2&page[access_token]=${TOKEN}` }));
    const client = testClient(api.url);
    const error = await rejectionOf(drain(client));
    expect(error.code).toBe(ApiErrorCode.tooManyPages);
    expect(error.message).toBe(
      `venue-roles: GET /core/venue-roles/?filter[venue]=v1&page[number]=1&page[size]=2 still had a links.next after ${DEFAULT_MAX_PAGES} pages (api.maxPages); ` +
        `stopped before /core/venue-roles/?filter[venue]=v1&page[number]=${DEFAULT_MAX_PAGES + 1}&page[size]=2&page[access_token]=***`,
    );
    expect(error.hint).toContain(`raise api.maxPages (now ${DEFAULT_MAX_PAGES})`);
    expect(error.details).toMatchObject({ retriable: false, stream: 'venue-roles', maxPages: DEFAULT_MAX_PAGES });
    expect(JSON.stringify([error.message, error.details])).not.toContain(TOKEN);
    expect(api.requests).toHaveLength(DEFAULT_MAX_PAGES);
    await client.close();
  });

  it('defaults to 1,000, the same in the client and in the config; the config passes it on', async () => {
    expect(DEFAULT_MAX_PAGES).toBe(1_000);
    const config = ConfigSchema.parse({ api: { baseUrl: 'http://127.0.0.1:1', token: 'abcd' } });
    expect(config.api?.maxPages).toBe(DEFAULT_MAX_PAGES);
    const api = await endless((n) => ({ ids: [`r${n}`], next: `filter[venue]=v1&page[number]=${n + 1}&page[size]=2` }));
    const client = testClient(api.url, { maxPages: 7 });
    expect((await rejectionOf(drain(client))).message).toContain('after 7 pages (api.maxPages)');
    expect(api.requests).toHaveLength(7);
    await client.close();
  });
});

describe('a foreign links.next', () => {
  it('fails that list only: the other host gets nothing, and the client goes on with other lists', async () => {
    const other = await serve((_req, res) => sendJson(res, 200, listDocument([])));
    const api = await serve((req, res) => {
      const foreign = req.url?.includes('filter[venue]=v1');
      sendJson(
        res,
        200,
        listDocument([resource('a', 'venue-roles')], { next: foreign ? `${other.url}/core/venue-roles/?page[number]=2&token=${TOKEN}` : null }),
      );
    });
    const client = testClient(api.url);
    const error = await rejectionOf(drain(client));
    expect(error.code).toBe(ApiErrorCode.foreignLink);
    expect(error.message).toContain(`links.next of venue-roles: GET ${ROLES}&page[number]=1&page[size]=2`);
    expect(error.message).toContain(`points to another origin (${other.url}, not ${api.url})`);
    expect(error.details).toMatchObject({ retriable: false, foreignOrigin: other.url });
    expect(await drain(client, '/core/venue-roles/?filter[venue]=v2')).toBe(1);
    expect(other.requests).toHaveLength(0);
    await client.close();
  });
});
