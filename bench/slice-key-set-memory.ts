/**
 * What a resumed backfill's done slices cost to hold (src/plan/slice-key-set.ts), beside a Set
 * of the key strings: heap used plus array buffers after a full collection, and the time to load
 * the keys and to look each up (not the time to make them). The size before sealing is printed
 * too: the loading's peak, the keys taking 8 bytes each and room for more. Not part of `npm run
 * bench` (a figure of one class, not of the tool):
 *
 *   npm run build && node --expose-gc dist/bench/slice-key-set-memory.js [venues...]
 *
 * Keys are those of a 2-year backfill resumed near its end: per venue 12 streams x 21 monthly
 * windows (history streams without a grain, summary streams at month grain), 1,000 venues by
 * default. They are made a chunk of 2,048 at a time, as the warehouse hands them over.
 */
import { performance } from 'node:perf_hooks';
import { SliceKeySet } from '../src/plan/index.js';

const STREAMS = ['devices', 'users', 'logins', 'sessions', 'ratings', 'visits'].flatMap((what) => [`venue-${what}-history`, `venue-${what}-summary`]);
const WINDOWS = 21;
const CHUNK = 2_048;

function venueId(i: number): string {
  const hex = i.toString(16).padStart(12, '0');
  return `0b6f3c1e-4a52-4c1b-9a55-${hex}`;
}

function monthWindow(i: number): { from: string; to: string } {
  const from = new Date(Date.UTC(2024, 3 + i, 1));
  const to = new Date(Date.UTC(2024, 4 + i, 0));
  return { from: from.toISOString().slice(0, 10), to: to.toISOString().slice(0, 10) };
}

/** Every key, a chunk at a time (the strings of one chunk only are alive at once). */
function* chunks(venues: number): Generator<string[]> {
  let chunk: string[] = [];
  for (let v = 0; v < venues; v += 1) {
    const venue = venueId(v);
    for (const stream of STREAMS) {
      const grain = stream.endsWith('summary') ? 'month' : '';
      for (let w = 0; w < WINDOWS; w += 1) {
        const { from, to } = monthWindow(w);
        // Flat strings, as a DuckDB chunk gives them (not ropes of the parts).
        chunk.push(JSON.parse(JSON.stringify(`${stream}|${venue}|${from}|${to}|${grain}`)));
        if (chunk.length === CHUNK) {
          yield chunk;
          chunk = [];
        }
      }
    }
  }
  if (chunk.length > 0) yield chunk;
}

function retained(): number {
  const gc = globalThis.gc;
  if (gc === undefined) throw new Error('run with node --expose-gc');
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
}

interface Holder {
  readonly size: number;
  has(key: string): boolean;
}

/** Times the loading of each chunk, not the making of its keys. */
class Stopwatch {
  ms = 0;
  note = '';
  constructor(readonly base: number) {}
  time(work: () => void): void {
    const started = performance.now();
    work();
    this.ms += performance.now() - started;
  }
}

function measure(label: string, venues: number, load: (keys: Generator<string[]>, watch: Stopwatch) => Holder): void {
  const before = retained();
  const watch = new Stopwatch(before);
  const holder = load(chunks(venues), watch);
  const ms = watch.ms;
  const bytes = retained() - before;
  let lookups = 0;
  for (const chunk of chunks(venues)) {
    watch.time(() => {
      for (const key of chunk) if (holder.has(key)) lookups += 1;
    });
  }
  if (lookups !== holder.size) throw new Error(`${label}: ${lookups} of ${holder.size} keys found`);
  const lookupMs = watch.ms - ms;
  const mb = (bytes / 1e6).toFixed(1);
  const perKey = (bytes / holder.size).toFixed(1);
  process.stdout.write(
    `${label.padEnd(14)} ${venues} venues ${holder.size} keys: ${mb} MB (${perKey} bytes a key), loaded in ${ms.toFixed(0)} ms, each looked up in ${lookupMs.toFixed(0)} ms${watch.note}\n`,
  );
}

const sizes = process.argv.slice(2).map(Number);
for (const venues of sizes.length > 0 ? sizes : [1_000]) {
  measure('Set of strings', venues, (keys, watch) => {
    const set = new Set<string>();
    for (const chunk of keys) {
      watch.time(() => {
        for (const key of chunk) set.add(key);
      });
    }
    return set;
  });
  measure('SliceKeySet', venues, (keys, watch) => {
    const set = new SliceKeySet();
    for (const chunk of keys) {
      watch.time(() => {
        for (const key of chunk) set.add(key);
      });
    }
    watch.note = `; ${((retained() - watch.base) / 1e6).toFixed(1)} MB before sealing`;
    watch.time(() => set.seal());
    return set;
  });
}
