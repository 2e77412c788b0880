import { describe, expect, it } from 'vitest';
import { ApiErrorCode } from '../../src/api/index.js';
import { captureLog, listDocument, rejectionOf, resource, sendJson, serverPerTest, singleDocument, testClient, TOKEN } from './helpers.js';

const serve = serverPerTest();

/** Message, hint, details and every cause down the chain, as a person or a log would see them. */
function everythingShown(error: unknown): string {
  const parts: string[] = [];
  for (let current = error as Record<string, unknown> | undefined; current; current = current.cause as Record<string, unknown> | undefined) {
    parts.push(String(current.message), String(current.hint), JSON.stringify(current.details ?? {}), String(current.stack));
  }
  return parts.join('\n');
}

describe('the token', () => {
  it('never appears in log lines or error messages, even when the server echoes it', async () => {
    const echo = `invalid token ${TOKEN}`;
    const other = await serve((_req, res) => sendJson(res, 200, listDocument([])));
    const api = await serve((req, res) => {
      switch (new URL(req.url ?? '/', 'http://x').pathname) {
        case '/ok/':
          return sendJson(res, 200, singleDocument());
        case '/denied/':
          return sendJson(res, 401, { errors: [{ title: 'Unauthorized', detail: echo }] });
        case '/bad/':
          return sendJson(res, 422, { errors: [{ title: echo }] });
        case '/down/':
          return sendJson(res, 503, { errors: [{ detail: echo }] });
        case '/html/':
          res.writeHead(200);
          return res.end(`<html><head><title>${echo}</title></head><p>${echo}</p></html>`);
        case '/echo-json/':
          res.writeHead(200);
          return res.end(`${TOKEN.slice(0, 8)}${echo}`);
        case '/foreign/':
          return sendJson(res, 200, listDocument([resource('a')], { next: `${other.url}/?token=${TOKEN}` }));
        default:
          return sendJson(res, 404, { errors: [{ detail: echo }] });
      }
    });
    const log = captureLog('debug');
    const client = testClient(api.url, { logger: log.logger, maxRetries: 1 });

    await client.getDocument('/ok/');
    const errors = [
      await rejectionOf(client.getDocument('/bad/')),
      await rejectionOf(client.getDocument('/down/')),
      await rejectionOf(client.getDocument('/html/')),
      // Not JSON, and starting with part of the token: JSON.parse's message quotes the start.
      await rejectionOf(client.getDocument('/echo-json/')),
      await rejectionOf(client.getDocument('/missing/')),
      await rejectionOf(
        (async () => {
          for await (const _page of client.paginate('/foreign/', { pageSize: 1 })) {
            /* drain */
          }
        })(),
      ),
      // Last: after a refused token the client sends nothing more.
      await rejectionOf(client.getDocument('/denied/')),
    ];
    client.logSummary();
    expect(errors.map((error) => error.code)).toEqual([
      ApiErrorCode.badRequest,
      ApiErrorCode.retriesExhausted,
      // A page, titled with the echo: named, not retried, the title's token masked.
      ApiErrorCode.contentType,
      ApiErrorCode.retriesExhausted,
      ApiErrorCode.notFound,
      ApiErrorCode.foreignLink,
      ApiErrorCode.auth,
    ]);
    // The server's own words are kept, only the credential is masked.
    expect(errors.at(-1)!.message).toContain('invalid token ***');
    expect(errors[2]!.message).toContain('a page titled "invalid token ***"');
    for (const error of errors) expect(everythingShown(error)).not.toContain(TOKEN);
    for (const error of errors) expect(everythingShown(error)).not.toContain(TOKEN.slice(0, 8));
    expect(log.lines().length).toBeGreaterThan(5);
    expect(log.text()).not.toContain(TOKEN);
    expect(other.requests).toHaveLength(0);
    await client.close();
  });
});
