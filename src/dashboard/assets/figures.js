// The numbers of the dashboard page for a selection (all venues or one) and a range of the days
// the file holds (runs in the browser, inlined into the HTML). Sums add what is known and count
// what is not: a day or month without rows is unknown, never 0, and every figure says how much
// of it is missing so the page can explain it (and name the command that loads it).
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic <script> inlined into the page, not a module; without it the page runs in sloppy mode.
'use strict';

// biome-ignore lint/correctness/noUnusedVariables: a classic script's global, read by dashboard.js in the same page.
const Figures = (data) => {
  const V = data.venues.length;
  const known = (v) => v !== null && v !== undefined;
  const venuesOf = (sel) => (sel < 0 ? data.venues.map((_, i) => i) : [sel]);

  /**
   * One daily metric over days d0..d1: per day the sum of the known venues (null when none is
   * known) and how many venues are unknown that day.
   */
  function daily(metric, sel, d0, d1) {
    const venues = venuesOf(sel);
    const values = [];
    const unknown = [];
    for (let d = d0; d <= d1; d++) {
      let sum = 0;
      let missing = 0;
      for (const v of venues) {
        const x = data.daily[metric][v][d];
        if (known(x)) sum += x;
        else missing++;
      }
      values.push(missing === venues.length ? null : sum);
      unknown.push(missing);
    }
    return { values, unknown, venues: venues.length };
  }

  /** The days (as dates) on which any venue of the series is unknown: what is missing of it. */
  function missingDays(series, d0) {
    const days = [];
    series.unknown.forEach((n, k) => {
      if (n > 0) days.push(data.days[d0 + k]);
    });
    return days;
  }

  /** The sum of the known values of a series, null when none is known. */
  function total(values) {
    let sum = null;
    for (const v of values) if (known(v)) sum = (sum ?? 0) + v;
    return sum;
  }

  /** Indexes of data.months that overlap days d0..d1. */
  function monthsIn(d0, d1) {
    const first = data.days[d0].slice(0, 7);
    const last = data.days[d1].slice(0, 7);
    return data.months
      .map((m, i) => [m, i])
      .filter(([m]) => m >= first && m <= last)
      .map(([, i]) => i);
  }

  /**
   * Per-venue-month rows (`rows[venue][month]`, an array of `width` counts or null when nothing
   * was loaded) summed over the selection and months; `missing` lists the months some venue lacks.
   */
  function monthly(rows, width, sel, months) {
    const sums = new Array(width).fill(null);
    const missing = new Set();
    for (const v of venuesOf(sel)) {
      for (const m of months) {
        const row = rows[v][m];
        if (!row) {
          missing.add(data.months[m]);
          continue;
        }
        row.forEach((x, k) => {
          if (known(x)) sums[k] = (sums[k] ?? 0) + x;
        });
      }
    }
    return { sums, missing: [...missing].sort() };
  }

  function methods(sel, months) {
    return monthly(data.methods.logins, data.methods.names.length, sel, months);
  }

  function funnel(sel, months) {
    return monthly(data.funnel, 4, sel, months);
  }

  /** Ratings of each value 1–5 per month, summed over the selection (null: no venue has a row). */
  function ratings(sel, months) {
    return {
      perMonth: months.map(
        (m) =>
          monthly(
            data.ratings.rated.map((venue) => [venue[m]]),
            5,
            sel,
            [0],
          ).sums,
      ),
      missing: monthly(data.ratings.rated, 5, sel, months).missing,
    };
  }

  /**
   * Average detected devices per weekday × hour over the months: each venue's months weighed by
   * the hours they hold, then summed over the venues that have hourly rows. Null: none has any.
   */
  function peak(sel, months) {
    if (!data.peak) return null;
    let grid = null;
    let venues = 0;
    for (const v of venuesOf(sel)) {
      const sum = new Array(168).fill(0);
      const hours = new Array(168).fill(0);
      let any = false;
      for (const m of months) {
        const average = data.peak.average[v][m];
        if (!average) continue;
        any = true;
        average.forEach((a, c) => {
          const h = data.peak.hours[v][m][c];
          if (known(a) && h > 0) {
            sum[c] += a * h;
            hours[c] += h;
          }
        });
      }
      if (!any) continue;
      venues++;
      grid ??= new Array(168).fill(0);
      for (let c = 0; c < 168; c++) grid[c] += hours[c] > 0 ? sum[c] / hours[c] : 0;
    }
    return grid && { grid, venues };
  }

  /** Every venue's devices detected over d0..d1 (known days), largest first. */
  function ranking(d0, d1) {
    const rows = data.venues.map((_, v) => {
      const series = data.daily.detected[v].slice(d0, d1 + 1);
      return { v, detected: total(series), unknown: series.filter((x) => !known(x)).length };
    });
    rows.sort((a, b) => (b.detected ?? -1) - (a.detected ?? -1) || a.v - b.v);
    rows.forEach((r, k) => {
      r.rank = r.detected === null ? null : k + 1;
    });
    return rows;
  }

  /**
   * Whether any daily figure is known for days d0..d1 (a range in the future holds none). The
   * figures read by whole month do not count: a month's summaries are not the range's days.
   */
  function anything(d0, d1) {
    for (const metric of Object.keys(data.daily)) {
      for (let v = 0; v < V; v++) {
        for (let d = d0; d <= d1; d++) if (known(data.daily[metric][v][d])) return true;
      }
    }
    return false;
  }

  return { daily, missingDays, total, monthsIn, methods, funnel, ratings, peak, ranking, anything, venuesOf };
};
