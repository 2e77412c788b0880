import { describe, expect, it } from 'vitest';
import { ApiErrorCode } from '../../src/api/index.js';
import { rejectionOf, sendJson, serverPerTest, singleDocument, testClient, TOKEN } from './helpers.js';

const serve = serverPerTest();

async function redirected(status: number, location: string | undefined) {
  const api = await serve((_req, res) => {
    res.writeHead(status, location === undefined ? {} : { location });
    res.end(`moved: ${TOKEN}`);
  });
  const client = testClient(api.url, { maxRetries: 3 });
  const error = await rejectionOf(client.getDocument('/analytics/venue-users-summary/v1/'));
  await client.close();
  return { api, error };
}

describe('3xx answers', () => {
  it('without a Location: a coded error with a hint, one request', async () => {
    for (const status of [301, 302, 303, 307, 308, 304]) {
      const { api, error } = await redirected(status, undefined);
      expect(error.code).toBe(ApiErrorCode.redirect);
      expect(error.message).toBe(`GET /analytics/venue-users-summary/v1/ answered ${status} (a redirect) without a usable Location header`);
      expect(error.hint).toContain('check that api.baseUrl is the address of the API itself');
      expect(error.details).toMatchObject({ retriable: false, status });
      expect(api.requests).toHaveLength(1);
    }
  });

  it('an empty Location is no Location; one that is not a URL is not quoted', async () => {
    const { error } = await redirected(302, ' ');
    expect(error.message).toMatch(/without a usable Location header$/);
    const unreadable = await redirected(302, `http://[user:${TOKEN}`);
    expect(unreadable.error.message).toMatch(/without a usable Location header \(the one sent is not a URL\)$/);
    expect(unreadable.error.message).not.toContain(TOKEN.slice(0, 6));
  });

  it('within the same origin: not followed, the target named', async () => {
    const { api, error } = await redirected(302, '/login/?next=/analytics/&session=abc123');
    expect(error.code).toBe(ApiErrorCode.redirect);
    expect(error.message).toBe(
      'GET /analytics/venue-users-summary/v1/ was redirected (302) to /login/?next=/analytics/&session=***; venue-etl does not follow redirects',
    );
    expect(error.hint).toContain('set api.baseUrl to its new address');
    expect(api.requests).toHaveLength(1);
  });

  it('to another origin: not followed (that host gets nothing), the origin named, credentials masked', async () => {
    const other = await serve((_req, res) => sendJson(res, 200, singleDocument()));
    const { api, error } = await redirected(301, `${other.url.replace('http://', 'http://user:pw@')}/v2/analytics/?token=${TOKEN}&page=2`);
    expect(error.code).toBe(ApiErrorCode.redirect);
    expect(error.message).toBe(
      `GET /analytics/venue-users-summary/v1/ was redirected (301) to another origin, ${other.url}/v2/analytics/?token=***&page=2; venue-etl does not follow redirects, and sends the token only to ${api.url} (api.baseUrl)`,
    );
    expect(error.hint).toBe(`If the API has moved (e.g. from http to https), set api.baseUrl to its new address on ${other.url}.`);
    expect(error.details).toMatchObject({ retriable: false, status: 301, foreignOrigin: other.url });
    expect(JSON.stringify([error.message, error.hint, error.details])).not.toMatch(new RegExp(`${TOKEN}|pw@`));
    expect(api.requests).toHaveLength(1);
    expect(other.requests).toHaveLength(0);
  });
});
