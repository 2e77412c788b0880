/**
 * The throttle alone against the simulator's bucket in virtual time, over runs the length of a
 * nightly sync of 1,000 venues (23,400 requests), at R 10, 50 and 200 and 20 and 200 ms; a request
 * on a new connection arrives 10 ms late. Prints goodput ÷ R and the share refused per point:
 * `node dist/bench/virtual-nightly-sync.js [requests]` (docs/rate-limits.md, "Measurements").
 */
import { runAgainstRateLimit } from './virtual-rate-limit.js';

const requests = Number(process.argv[2] ?? 23_400);
for (const rate of [10, 50, 200]) {
  for (const latencyMs of [20, 200]) {
    const run = await runAgainstRateLimit({ rate, latencyMs, requests, connectMs: 10 });
    const goodput = run.accepted / (run.elapsedMs / 1000) / rate;
    const share = run.refused / (run.accepted + run.refused);
    process.stdout.write(
      `R ${rate} ${latencyMs} ms: ${goodput.toFixed(3)} R, ${run.refused} of ${run.accepted + run.refused} refused (${(share * 100).toFixed(2)} %)\n`,
    );
  }
}
