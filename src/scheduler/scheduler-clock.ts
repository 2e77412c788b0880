/** Time as the scheduler sees it: injected, so tests can cross a daylight saving change without waiting for one. */
export interface SchedulerClock {
  /** Epoch milliseconds. */
  now(): number;
  /** Calls `wake` once, `ms` from now (or later); returns a function that cancels it. */
  setTimer(wake: () => void, ms: number): () => void;
}

export const systemClock: SchedulerClock = {
  now: () => Date.now(),
  setTimer(wake, ms) {
    const timer = setTimeout(wake, ms);
    return () => clearTimeout(timer);
  },
};
