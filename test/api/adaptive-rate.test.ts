import { describe, expect, it } from 'vitest';
import { createAdaptiveRate } from '../../src/api/adaptive-rate.js';

/** An API that answers every request 20 ms after it was sent, on a clock the test moves. */
function driven() {
  let t = 0;
  const rate = createAdaptiveRate({ ceiling: 64, now: () => t });
  return {
    rate,
    /** Sends at `sentAt` (waiting behind the limit or the pace), answered 20 ms later. */
    answer(sentAt: number, accepted: boolean) {
      t = sentAt;
      const attempt = rate.sent(true);
      t = sentAt + 20;
      if (accepted) rate.succeeded(attempt, true);
      else rate.throttled(attempt);
    },
  };
}

describe('adaptive rate: the limit told by the refill bounds', () => {
  it('takes the level as soon as an acceptance narrows the bounds, not at the next refusal', () => {
    // R 10: the first round trip (two at 0 ms) takes the burst, the next is refused twice (the
    // second in the wave after the first decrease: halved, the episode starts over); then one
    // request every 100 ms, and a refusal at 900 ms bounds the refill under 10.13/s. The
    // acceptances that follow raise the lower bound: within 10 % of the upper one by ~5 s.
    const { rate, answer } = driven();
    answer(0, true);
    answer(0, true);
    answer(20, false);
    answer(40, false);
    for (let sentAt = 100; sentAt <= 800; sentAt += 100) answer(sentAt, true);
    answer(900, false);
    expect(rate.limitFound).toBeUndefined();
    let foundAt: number | undefined;
    for (let sentAt = 1_000; sentAt <= 8_000; sentAt += 100) {
      answer(sentAt, true);
      if (foundAt === undefined && rate.limitFound !== undefined) foundAt = sentAt;
    }
    // Told by the bounds (10.13/s over 10/s, never under it), and the pace just under it.
    expect(foundAt).toBeGreaterThan(3_000);
    expect(foundAt).toBeLessThan(6_000);
    expect(rate.limitFound).toBeGreaterThanOrEqual(10);
    expect(rate.limitFound).toBeLessThan(10.3);
    expect(rate.pacing).toBeCloseTo(0.99 * rate.limitFound!, 6);
  });
});
