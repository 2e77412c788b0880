import type { SchedulerClock } from '../../src/scheduler/scheduler-clock.js';

/** A clock the test moves: timers fire in time order as it advances (no real waiting). */
export class ManualClock implements SchedulerClock {
  private timers: { at: number; wake: () => void }[] = [];

  constructor(private current: number) {}

  now(): number {
    return this.current;
  }

  setTimer(wake: () => void, ms: number): () => void {
    const timer = { at: this.current + Math.max(0, ms), wake };
    this.timers.push(timer);
    return () => {
      this.timers = this.timers.filter((t) => t !== timer);
    };
  }

  /** Moves to `until`, firing every timer due on the way (and the ones they set), letting async work settle after each. */
  async advanceTo(until: number): Promise<void> {
    for (;;) {
      const due = this.timers.filter((t) => t.at <= until).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.timers = this.timers.filter((t) => t !== due);
      this.current = Math.max(this.current, due.at);
      due.wake();
      await new Promise((resolve) => setImmediate(resolve));
    }
    this.current = until;
  }

  /** Jumps to `to` without firing anything on the way (a machine asleep), then fires what is due. */
  async sleepUntil(to: number): Promise<void> {
    this.current = to;
    await this.advanceTo(to);
  }
}
