/**
 * What the page embeds: every figure it draws, per venue, aligned to the range's days and months
 * so the page only adds numbers up (for "all venues" and "the rest"). Numbers are the report
 * rows' values unchanged; NULL (unknown) stays null and makes any sum it enters unknown.
 */
export type Count = number | null;

export interface VenueEntry {
  readonly id: string;
  /** How the reports show the venue: its name, with the short id where names repeat or are missing. */
  readonly label: string;
  /** Rank by devices detected (venue-ranking); null for a venue with summaries only. */
  readonly rank: number | null;
  readonly detected: Count;
  readonly authenticated: Count;
  readonly logins: Count;
  readonly embeds: Count;
}

export const DAILY_METRICS = ['detected', 'authenticated', 'logins', 'uniqueLogins', 'confirmedUsers', 'returningUsers', 'embeds'] as const;
export type DailyMetric = (typeof DAILY_METRICS)[number];

export interface PageData {
  readonly title: string;
  readonly generatedAt: string;
  /** The window asked for (`from`: --from or the default window's first day; null = unbounded), and the days and months the file holds. */
  readonly from: string | null;
  readonly to: string | null;
  /** The range the page shows when it opens (the range control moves it within `days`). */
  readonly initial: { readonly from: string; readonly to: string } | null;
  readonly tz: string;
  readonly topN: number;
  readonly days: readonly string[];
  readonly months: readonly string[];
  /** In rank order; every per-venue array below is indexed like this one. */
  readonly venues: readonly VenueEntry[];
  /** daily[metric][venue][day] */
  readonly daily: Readonly<Record<DailyMetric, readonly (readonly Count[])[]>>;
  /** logins[venue][month][method]; null = no row for that venue and month (nothing loaded). */
  readonly methods: { readonly names: readonly string[]; readonly logins: readonly (readonly (readonly Count[] | null)[])[] };
  /** rated[venue][month][rate - 1]; rated[venue][month] null = no row (nothing loaded). */
  readonly ratings: { readonly rated: readonly (readonly (readonly Count[] | null)[])[] };
  /** funnel[venue][month] = [sent, opened, rated, commented]; null = no row (nothing loaded). */
  readonly funnel: readonly (readonly (readonly Count[] | null)[])[];
  /**
   * average[venue][month][(weekday - 1) * 24 + hour] of detected devices and the hours each is
   * over (hours[…], to weigh months together); null for a venue and month without hourly rows;
   * null when none has any.
   */
  readonly peak: {
    readonly average: readonly (readonly (readonly Count[] | null)[])[];
    readonly hours: readonly (readonly (readonly number[] | null)[])[];
  } | null;
  /** status[stream] is one letter per day: L loaded, M missing, F failed. */
  readonly coverage: {
    readonly streams: readonly string[];
    readonly days: readonly string[];
    readonly status: readonly string[];
    readonly loaded: readonly (readonly number[])[];
    readonly venues: readonly number[];
  };
  readonly freshness: readonly Readonly<Record<string, unknown>>[];
  readonly lastRuns: readonly Readonly<Record<string, unknown>>[];
  readonly failedSlices: readonly Readonly<Record<string, unknown>>[];
  readonly access: readonly Readonly<Record<string, unknown>>[];
}
