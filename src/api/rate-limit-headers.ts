import { z } from 'zod';

type Headers = Readonly<Record<string, string | string[] | undefined>>;

const Rate = z.number().positive().finite();

/**
 * The requests per second an answer says its API allows: the lowest quota ÷ window of the IETF
 * draft's `RateLimit-Policy` (`"default";q=100;w=10`, or the older `100;w=10`), else
 * `X-RateLimit-Limit` (or the draft's earlier `RateLimit-Limit`) over the seconds to its
 * `-Reset` (one at least; 10⁹ or more is a time in epoch seconds, as GitHub sends it). Undefined
 * when the answer says nothing readable.
 */
export function readRateLimitHeaders(headers: Headers, nowMs: number = Date.now()): number | undefined {
  const legacy = (name: string) => numberOf(header(headers, `ratelimit-${name}`) ?? header(headers, `x-ratelimit-${name}`));
  const reset = legacy('reset') ?? 0;
  const windowSeconds = Math.max(1, reset >= 1e9 ? reset - nowMs / 1000 : reset);
  const quota = legacy('limit');
  const told = Rate.safeParse(policyRate(header(headers, 'ratelimit-policy')) ?? (quota === undefined ? undefined : quota / windowSeconds));
  return told.success ? told.data : undefined;
}

function policyRate(value: string | undefined): number | undefined {
  const rates = (value ?? '').split(',').flatMap((item) => {
    const params = new Map(item.split(';').map((part) => part.trim().split('=') as [string, string | undefined]));
    const [quota, window] = [numberOf(params.get('q')) ?? numberOf(item.split(';')[0]), numberOf(params.get('w'))];
    return quota !== undefined && window ? [quota / window] : [];
  });
  return rates.length === 0 ? undefined : Math.min(...rates);
}

function numberOf(text: string | undefined): number | undefined {
  return /^\d+(\.\d+)?$/.test(text?.trim() ?? '') ? Number(text) : undefined;
}

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name] ?? headers[Object.keys(headers).find((k) => k.toLowerCase() === name) ?? ''];
  return Array.isArray(value) ? value.join(',') : value;
}
