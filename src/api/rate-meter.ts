/**
 * Events over the last two seconds, counted in 40 slots of 50 ms: constant memory and work per
 * event, whatever the rate. Two seconds, not one: at 10 requests/s one second holds 10 ± 1.
 */
export class RateMeter {
  private static readonly SLOTS = 40;
  private static readonly SLOT_MS = 50;
  private readonly counts = new Array<number>(RateMeter.SLOTS).fill(0);
  /** Index (time / SLOT_MS) of the newest slot written. */
  private newest = 0;

  constructor(private readonly now: () => number) {}

  add(): void {
    this.advance();
    this.counts[this.newest % RateMeter.SLOTS]! += 1;
  }

  /** Events over the last `ms` (whole slots, up to two seconds). */
  countOver(ms: number): number {
    this.advance();
    const slots = Math.min(RateMeter.SLOTS, Math.max(1, Math.ceil(ms / RateMeter.SLOT_MS)));
    let total = 0;
    for (let i = 0; i < slots; i++) total += this.counts[(this.newest - i + RateMeter.SLOTS) % RateMeter.SLOTS]!;
    return total;
  }

  private advance(): void {
    const slot = Math.floor(this.now() / RateMeter.SLOT_MS);
    const clear = Math.min(RateMeter.SLOTS, slot - this.newest);
    for (let i = 1; i <= clear; i++) this.counts[(this.newest + i) % RateMeter.SLOTS] = 0;
    this.newest = Math.max(this.newest, slot);
  }
}
