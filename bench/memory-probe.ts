/**
 * Preloaded into a CLI child (`NODE_OPTIONS=--import …/memory-probe.js`): samples
 * `process.memoryUsage()` every 20 ms and writes the peaks to stderr at exit, so that a peak
 * RSS can be split into the JavaScript heap, memory V8 tracks outside it (`external`: Buffers,
 * DuckDB result vectors wrapped for JavaScript) and the rest (Node's code, DuckDB's own buffer
 * pool, the allocator). Sampling can miss a short peak.
 */
const peak = { heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0, rss: 0 };
const sample = (): void => {
  const m = process.memoryUsage();
  peak.heapTotal = Math.max(peak.heapTotal, m.heapTotal);
  peak.heapUsed = Math.max(peak.heapUsed, m.heapUsed);
  peak.external = Math.max(peak.external, m.external);
  peak.arrayBuffers = Math.max(peak.arrayBuffers, m.arrayBuffers);
  peak.rss = Math.max(peak.rss, m.rss);
};
setInterval(sample, 20).unref();
process.on('exit', () => {
  sample();
  process.stderr.write(`\n${MEMORY_PROBE_TAG} ${JSON.stringify(peak)}\n`);
});

export const MEMORY_PROBE_TAG = 'venue-etl-bench-memory';
