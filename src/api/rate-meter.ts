const SLOTS = 40;
const SLOT_MS = 50;

/** Events over the last two seconds in 40 slots of 50 ms: constant memory and work per event, whatever the rate. */
export class RateMeter {
  private readonly counts = new Array<number>(SLOTS).fill(0);
  private newest = 0; // time / SLOT_MS of the newest slot written

  constructor(private readonly now: () => number) {}

  add(): void {
    this.advance();
    this.counts[this.newest % SLOTS]! += 1;
  }

  /** Events over the last `ms` (whole slots, up to two seconds). */
  countOver(ms: number): number {
    this.advance();
    let total = 0;
    for (let i = 0; i < Math.min(SLOTS, Math.max(1, Math.ceil(ms / SLOT_MS))); i++) total += this.counts[(this.newest - i + SLOTS) % SLOTS]!;
    return total;
  }

  private advance(): void {
    const slot = Math.floor(this.now() / SLOT_MS);
    for (let i = this.newest + 1; i <= Math.min(slot, this.newest + SLOTS); i++) this.counts[i % SLOTS] = 0;
    this.newest = Math.max(this.newest, slot);
  }
}
