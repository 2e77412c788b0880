/**
 * The slice keys a resumed backfill has done (sliceKey's `stream|scope|from|to|grain`), held
 * compactly: each `stream|scope|` is numbered once (the scope ids held once, not once per
 * stream), and a key is one number, the scope's number x 2^31 + the window and grain in 31 bits.
 * While loading, the numbers are appended to a typed array (8 bytes a key); sealing (`seal`, or
 * the first lookup) sorts them once and keeps per scope a sorted run of 32-bit window codes
 * (4 bytes a key), searched by halves. Exact: a key of another shape, a date that does not
 * exist, or more scopes or grains than the bits hold, is kept as the string it is.
 *
 * Keys of a 2-year backfill resumed near its end (12 streams x 21 monthly windows a venue); heap
 * used plus array buffers after a full collection; `node --expose-gc
 * dist/bench/slice-key-set-memory.js 1000 5000`, load average 4-6 on 2 cores, times of two runs:
 *
 * | keys | a Set of the strings | before: per scope a Set of small integers | this, sealed (before sealing) |
 * |---|---|---|---|
 * | 252,000 (1,000 venues) | 31.0 MB | 10.7 MB, loaded in 0.9-1.0 s | 1.5 MB (2.8 MB), loaded in 0.29-0.31 s |
 * | 1,260,000 (5,000 venues) | 170.5 MB | 52.5 MB, loaded in 4.6-8.0 s | 7.1 MB (14.0 MB), loaded in 1.3-1.6 s |
 *
 * Looking every key up took about as long as loading them, in both. The load is quicker because
 * each date's day number is remembered (Date.UTC and toISOString once a date, not twice a key):
 * without that, 252,000 keys took 1.0 s here too.
 */
export class SliceKeySet {
  private readonly streams = new Map<string, number>();
  /** Per scope id, per stream's number, the scope's number: one entry per venue, not per venue and stream. */
  private readonly scopes = new Map<string, number[]>();
  private scopeCount = 0;
  private readonly grains: string[] = [];
  private readonly days = new Map<string, number>();
  private readonly others = new Set<string>();
  /** While loading: the packed keys as they come (scope's number x 2^31 + window code). */
  private loading: Float64Array | undefined = new Float64Array(INITIAL_CAPACITY);
  private loaded = 0;
  /** Once sealed: scope s's window codes are windows[offsets[s] .. offsets[s + 1]), sorted and unique. */
  private offsets = new Uint32Array(1);
  private windows = new Uint32Array(0);
  /** Keys added after sealing, until there are enough of them to merge into `windows`. */
  private readonly late = new Set<number>();

  constructor(keys: Iterable<string> = []) {
    for (const key of keys) this.add(key);
  }

  get size(): number {
    this.seal();
    return this.windows.length + this.late.size + this.others.size;
  }

  add(key: string): void {
    const code = this.encode(key, true);
    if (code === undefined) {
      this.others.add(key);
      return;
    }
    if (this.loading !== undefined) {
      this.append(code);
      return;
    }
    if (this.search(code)) return;
    this.late.add(code);
    if (this.late.size > Math.max(MIN_LATE, this.windows.length / 8)) this.mergeLate();
  }

  has(key: string): boolean {
    const code = this.encode(key, false);
    if (code === undefined) return this.others.has(key);
    this.seal();
    return this.search(code) || this.late.has(code);
  }

  /**
   * Ends the loading: sorts the keys, drops duplicates, and keeps 4 bytes a key instead of the
   * 8 (and the room for more) they took while loading. Done by the first lookup if not called;
   * keys added later are still counted and found.
   */
  seal(): void {
    if (this.loading === undefined) return;
    const codes = this.loading.subarray(0, this.loaded);
    this.loading = undefined;
    this.loaded = 0;
    this.index(codes);
  }

  private append(code: number): void {
    let loading = this.loading!;
    if (this.loaded === loading.length) {
      // x1.5, not x2: the room left over is at most a third of what the keys take while loading.
      const grown = new Float64Array(Math.ceil(loading.length * 1.5));
      grown.set(loading);
      this.loading = loading = grown;
    }
    loading[this.loaded] = code;
    this.loaded += 1;
  }

  /** Sorts the packed keys and splits them into per-scope runs of window codes. */
  private index(codes: Float64Array): void {
    codes.sort();
    const offsets = new Uint32Array(this.scopeCount + 1);
    let unique = 0;
    for (let i = 0; i < codes.length; i += 1) {
      if (i === 0 || codes[i] !== codes[i - 1]) {
        offsets[Math.floor(codes[i] / WINDOW_CODES) + 1] += 1;
        unique += 1;
      }
    }
    for (let s = 1; s < offsets.length; s += 1) offsets[s] += offsets[s - 1];
    const windows = new Uint32Array(unique);
    let at = 0;
    for (let i = 0; i < codes.length; i += 1) {
      if (i === 0 || codes[i] !== codes[i - 1]) {
        windows[at] = codes[i] % WINDOW_CODES;
        at += 1;
      }
    }
    this.offsets = offsets;
    this.windows = windows;
  }

  private mergeLate(): void {
    const codes = new Float64Array(this.windows.length + this.late.size);
    let at = 0;
    for (let s = 0; s + 1 < this.offsets.length; s += 1) {
      for (let i = this.offsets[s]; i < this.offsets[s + 1]; i += 1) {
        codes[at] = s * WINDOW_CODES + this.windows[i];
        at += 1;
      }
    }
    for (const code of this.late) {
      codes[at] = code;
      at += 1;
    }
    this.late.clear();
    this.index(codes);
  }

  /** Binary search of the scope's window codes. */
  private search(code: number): boolean {
    const scope = Math.floor(code / WINDOW_CODES);
    if (scope + 1 >= this.offsets.length) return false;
    const window = code % WINDOW_CODES;
    let low = this.offsets[scope];
    let high = this.offsets[scope + 1] - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const value = this.windows[middle];
      if (value === window) return true;
      if (value < window) low = middle + 1;
      else high = middle - 1;
    }
    return false;
  }

  /**
   * The scope's number x 2^31 + one integer for `from|to|grain`: the day number of `from` (days
   * since 1970), the window's length in days and the grain's index, each in its own bits; below
   * 2^53, so exact in a double. Undefined for a key of another shape, or a scope or grain not
   * seen yet when only looking it up, or one more than the bits hold when adding.
   */
  private encode(key: string, adding: boolean): number | undefined {
    const match = KEY.exec(key);
    if (match === null) return undefined;
    const [, stream, scopeId, from, to, grain] = match;
    const fromDay = this.dayNumber(from!);
    const length = this.dayNumber(to!) - fromDay;
    if (!Number.isInteger(fromDay) || !Number.isInteger(length) || fromDay < 0 || fromDay >= MAX_DAY || length < 0 || length >= MAX_LENGTH) return undefined;
    let grainIndex = this.grains.indexOf(grain!);
    if (grainIndex < 0) {
      if (!adding || this.grains.length >= MAX_GRAINS) return undefined;
      grainIndex = this.grains.push(grain!) - 1;
    }
    const scope = this.scopeNumber(stream!, scopeId!, adding);
    if (scope === undefined) return undefined;
    return scope * WINDOW_CODES + (fromDay * MAX_LENGTH + length) * MAX_GRAINS + grainIndex;
  }

  /** The number of `stream|scopeId|`, given when first added; undefined when only looking up one not seen, or when full. */
  private scopeNumber(stream: string, scopeId: string, adding: boolean): number | undefined {
    let streamIndex = this.streams.get(stream);
    if (streamIndex === undefined) {
      if (!adding || this.scopeCount >= MAX_SCOPES) return undefined;
      streamIndex = this.streams.size;
      this.streams.set(stream, streamIndex);
    }
    let perStream = this.scopes.get(scopeId);
    if (perStream === undefined) {
      if (!adding || this.scopeCount >= MAX_SCOPES) return undefined;
      perStream = [];
      this.scopes.set(scopeId, perStream);
    }
    let scope = perStream[streamIndex];
    if (scope === undefined) {
      if (!adding || this.scopeCount >= MAX_SCOPES) return undefined;
      scope = this.scopeCount;
      this.scopeCount += 1;
      perStream[streamIndex] = scope;
    }
    return scope;
  }

  /** Days since 1970 of a calendar date, remembered: a backfill's keys share a few hundred dates. */
  private dayNumber(day: string): number {
    let number = this.days.get(day);
    if (number === undefined) {
      number = dayNumber(day);
      if (this.days.size < MAX_REMEMBERED_DAYS) this.days.set(day, number);
    }
    return number;
  }
}

/** `stream|` (up to the first bar), the scope id up to the dates (bars allowed), the dates, the grain. */
const KEY = /^([^|]*)\|(.*)\|(\d{4}-\d{2}-\d{2})\|(\d{4}-\d{2}-\d{2})\|([^|]*)$/;
/** Days from 1970 to 2149, windows up to 4,096 days, 8 grains: 2^16 x 2^12 x 2^3 = 2^31 window codes. */
const MAX_DAY = 2 ** 16;
const MAX_LENGTH = 2 ** 12;
const MAX_GRAINS = 2 ** 3;
const WINDOW_CODES = MAX_DAY * MAX_LENGTH * MAX_GRAINS;
/** 2^22 scopes x 2^31 window codes = 2^53: every packed key is an exact double. */
const MAX_SCOPES = 2 ** 22;
const INITIAL_CAPACITY = 1_024;
const MIN_LATE = 1_024;
/** Ten years of days: more distinct dates than a backfill plans, and a bound on the cache. */
const MAX_REMEMBERED_DAYS = 4_096;

/** Days since 1970 of a calendar date; NaN for one that does not exist (2026-02-31 is not 2026-03-03). */
function dayNumber(day: string): number {
  const ms = Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
  return new Date(ms).toISOString().slice(0, 10) === day ? ms / 86_400_000 : Number.NaN;
}
