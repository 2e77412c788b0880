/** One API request as the simulator answered it (control requests under `/__sim/` are not logged; the last 50 000–100 000 are kept). */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** The raw query string, without `?` (empty when there is none). */
  readonly query: string;
  /** Lower-case names; repeated headers joined with `, `. */
  readonly headers: Readonly<Record<string, string>>;
  /** Status sent; 0 when the connection was reset before any answer. */
  readonly status: number;
  /** The injected fault(s), comma-separated (`429`, `drift-extra,drift-version`, …). */
  readonly fault?: string;
  /**
   * Which request of this URL it was, as the fault decision counted it (1 for the first; the
   * `#ATTEMPT` of a fault rule). Absent for a request the rate limit refused (it draws no fault).
   */
  readonly attempt?: number;
  /** When the request arrived (ISO 8601). */
  readonly at: string;
}

// A long-running `simulate` must not grow without bound: the oldest entries go first.
const MAX_ENTRIES = 100_000;

export class RequestLog {
  private entries: RecordedRequest[] = [];
  private readonly seen = new Map<string, number>();

  add(entry: RecordedRequest): void {
    this.entries.push(entry);
    if (this.entries.length > MAX_ENTRIES) this.entries = this.entries.slice(-MAX_ENTRIES / 2);
  }

  list(): readonly RecordedRequest[] {
    return [...this.entries];
  }

  clear(): void {
    this.entries = [];
  }

  /** 0 for the first request of this URL, 1 for the second…: the `n` of fault decisions. */
  nextOrdinal(url: string): number {
    const n = this.seen.get(url) ?? 0;
    this.seen.set(url, n + 1);
    return n;
  }
}
