/**
 * Preloaded into a CLI child (`NODE_OPTIONS=--import …/memory-probe.js`): samples the V8 heap
 * every 20 ms and writes the peaks to stderr at exit, so that a peak RSS can be split into the
 * JavaScript heap and the rest (Node, DuckDB, allocator). Sampling can miss a short peak.
 */
const peak = { heapTotal: 0, heapUsed: 0, rss: 0 };
const sample = (): void => {
  const m = process.memoryUsage();
  peak.heapTotal = Math.max(peak.heapTotal, m.heapTotal);
  peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
  peak.rss = Math.max(peak.rss, m.rss);
};
setInterval(sample, 20).unref();
process.on('exit', () => {
  sample();
  process.stderr.write(`\n${MEMORY_PROBE_TAG} ${JSON.stringify(peak)}\n`);
});

export const MEMORY_PROBE_TAG = 'venue-etl-bench-memory';
