import { z } from 'zod';

/** What an API says of its rate limit in an answer: requests per second (quota ÷ window), requests left, milliseconds until the quota is whole. */
export type ToldLimit = z.infer<typeof Told>;
type Headers = Readonly<Record<string, string | string[] | undefined>>;

const Told = z.object({
  perSecond: z.number().positive().finite().optional(),
  remaining: z.number().int().nonnegative().optional(),
  resetMs: z.number().nonnegative().finite().optional(),
});

/** A reset this large is a time (seconds since 1970, as GitHub sends it), not a number of seconds. */
const EPOCH_SECONDS = 1e9;

/**
 * Reads the IETF draft's `RateLimit-Policy: "default";q=100;w=10` and `RateLimit: "default";r=50;t=30`
 * (its earlier `RateLimit-Limit/-Remaining/-Reset`) and the common `X-RateLimit-Limit/-Remaining/-Reset`.
 * Without a policy, a limit is taken per the seconds to its reset (one at least). Undefined when
 * the answer says nothing readable.
 */
export function readRateLimitHeaders(headers: Headers, nowMs: number = Date.now()): ToldLimit | undefined {
  const current = fields(header(headers, 'ratelimit'));
  const legacy = (name: string) => numberOf(header(headers, `ratelimit-${name}`) ?? header(headers, `x-ratelimit-${name}`));
  const remaining = current.get('r') ?? current.get('remaining') ?? legacy('remaining');
  const reset = current.get('t') ?? current.get('reset') ?? legacy('reset');
  const resetMs = reset === undefined ? undefined : reset >= EPOCH_SECONDS ? Math.max(0, reset * 1000 - nowMs) : reset * 1000;
  const quota = legacy('limit');
  const perSecond = policyRate(header(headers, 'ratelimit-policy')) ?? (quota === undefined ? undefined : quota / Math.max(1, (resetMs ?? 0) / 1000));
  const told = Told.safeParse({ perSecond, remaining, resetMs });
  if (!told.success || (perSecond === undefined && remaining === undefined)) return undefined;
  return Object.fromEntries(Object.entries(told.data).filter(([, value]) => value !== undefined));
}

/** The lowest quota ÷ window of the policies listed (`"name";q=100;w=10`, or the older `100;w=10`). */
function policyRate(value: string | undefined): number | undefined {
  const rates = (value ?? '').split(',').flatMap((item) => {
    const params = fields(item);
    const [quota, window] = [params.get('q') ?? numberOf(item.split(';')[0]), params.get('w')];
    return quota !== undefined && window !== undefined && window > 0 ? [quota / window] : [];
  });
  return rates.length === 0 ? undefined : Math.min(...rates);
}

/** `key=number` pairs of a header, separated by `;` or `,`. */
function fields(value: string | undefined): Map<string, number> {
  const pairs = (value ?? '').split(/[;,]/).map((part) => part.trim().split('='));
  return new Map(pairs.flatMap(([key, text]) => (key && numberOf(text) !== undefined ? [[key.toLowerCase(), numberOf(text)!]] : [])));
}

function numberOf(text: string | undefined): number | undefined {
  const trimmed = text?.trim() ?? '';
  return /^\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : undefined;
}

/** `name` in lower case, as Node gives header names; any case otherwise. */
function header(headers: Headers, name: string): string | undefined {
  const value = headers[name] ?? headers[Object.keys(headers).find((k) => k.toLowerCase() === name) ?? ''];
  return Array.isArray(value) ? value.join(',') : value;
}
