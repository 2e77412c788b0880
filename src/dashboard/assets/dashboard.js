// The dashboard page: reads the data embedded in #dashboard-data and draws every section for
// "all venues" or the venue chosen in the selector, over the range chosen in the range control
// (within the days the file holds). No request leaves the page.
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic <script> inlined into the page, not a module; without it the page runs in sloppy mode.
'use strict';

(() => {
  const data = JSON.parse(document.getElementById('dashboard-data').textContent);
  const F = Figures(data);
  const { esc, fmt, pct } = Charts;
  const V = data.venues.length;
  const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
  const state = { sel: -1, d0: 0, d1: data.days.length - 1 };

  // The reports' label (sql/views/venue-labels.sql): the name, with the short id where names repeat or are missing.
  const venueLabel = (i) => data.venues[i].label;
  const report = (name) => `<code>venue-etl report ${esc(name)}</code>`;
  const source = (...names) => `Figures from ${names.map(report).join(', ')} with <code>--from ${range().from} --to ${range().to}</code>.`;
  // With no day held at all, the window the page was asked for (up to the day it was made).
  const range = () => ({
    from: data.days[state.d0] ?? data.from ?? data.generatedAt.slice(0, 10),
    to: data.days[state.d1] ?? data.to ?? data.generatedAt.slice(0, 10),
  });
  const selected = (sel = state.sel) => (sel < 0 ? '' : ` --venues ${data.venues[sel].id}`);
  const command = (text) => `<code class="command">${esc(text)}</code>`;

  /** The command that loads `stream` for first..last (and the chosen venue). */
  const backfill = (stream, first, last, extra = '', sel = state.sel) =>
    command(`venue-etl backfill --from ${first} --to ${last} --streams ${stream}${selected(sel)}${extra}`);

  /** What a series lacks in the range, and how to load it; '' when nothing is missing. */
  function partial(series, stream, sel = state.sel) {
    const missing = F.missingDays(series, state.d0);
    if (missing.length === 0) return '';
    const some = series.venues > 1 ? ' for some venues' : '';
    return `Partial: ${fmt(missing.length)} of ${fmt(series.values.length)} days have no ${esc(stream)} rows${some} (${missing[0]} – ${missing[missing.length - 1]}); sums leave them out. Load them: ${backfill(stream, missing[0], missing[missing.length - 1], '', sel)}`;
  }

  /** Why a chart has nothing to draw, and how to load it. */
  function empty(stream, first = range().from, last = range().to, extra = '', sel = state.sel) {
    const whose = sel < 0 ? 'any venue' : esc(venueLabel(sel));
    return `No ${esc(stream)} rows for ${whose} from ${first} to ${last}. Load them: ${backfill(stream, first, last, extra, sel)}`;
  }

  const allNull = (values) => values.every((v) => v === null || v === undefined);
  const pointNote = (series) => (k) =>
    series.venues > 1 && series.unknown[k] > 0 ? `${series.unknown[k]} of ${series.venues} venues not loaded this day` : '';

  function tile(name, value, note) {
    return `<div class="card"><div class="value">${esc(value)}</div><div class="label">${esc(name)}</div>${note ? `<div class="card-note">${note}</div>` : ''}</div>`;
  }

  /** A tile's state: empty, partial (days missing) or '' when every day is known. */
  function tileNote(series, stream) {
    if (allNull(series.values)) return `No data: ${backfill(stream, range().from, range().to)}`;
    const missing = F.missingDays(series, state.d0);
    return missing.length === 0 ? '' : `Partial: ${fmt(missing.length)} days missing. ${backfill(stream, missing[0], missing[missing.length - 1])}`;
  }

  function cards() {
    const s = (metric) => F.daily(metric, state.sel, state.d0, state.d1);
    const detected = s('detected');
    const authenticated = s('authenticated');
    const logins = s('logins');
    const embeds = s('embeds');
    // The share over the days where both counts are known.
    const both = detected.values.map((d, k) => (d === null || authenticated.values[k] === null ? null : k));
    const share = ratio(
      F.total(both.map((k) => (k === null ? null : authenticated.values[k]))),
      F.total(both.map((k) => (k === null ? null : detected.values[k]))),
    );
    return (
      '<div class="cards" id="tiles">' +
      tile('Devices detected', fmt(F.total(detected.values)), tileNote(detected, 'venue-devices-history')) +
      tile('Devices authenticated', fmt(F.total(authenticated.values)), tileNote(authenticated, 'venue-devices-history')) +
      tile('Share authenticated', pct(share), tileNote(detected, 'venue-devices-history')) +
      tile('Logins', fmt(F.total(logins.values)), tileNote(logins, 'venue-users-history')) +
      tile('Remarketing embeds', fmt(F.total(embeds.values)), tileNote(embeds, 'venue-remarketing-history')) +
      '</div>'
    );
  }

  const ratio = (a, b) => (a === null || b === null || b === 0 ? null : a / b);
  const days = () => data.days.slice(state.d0, state.d1 + 1);

  /** A time chart of daily series of one stream, or what is missing of it. */
  function timeChart(spec, stream, main) {
    if (spec.series.every((s) => allNull(s.values))) return Charts.line({ ...spec, empty: empty(stream) });
    return Charts.line({ ...spec, x: days(), xLabel: 'day (UTC)', partial: partial(main, stream), pointNote: pointNote(main) });
  }

  function devices() {
    const detected = F.daily('detected', state.sel, state.d0, state.d1);
    const authenticated = F.daily('authenticated', state.sel, state.d0, state.d1);
    const share = detected.values.map((d, k) => ratio(authenticated.values[k], d));
    return (
      timeChart(
        {
          id: 'chart-devices',
          title: 'Devices per day: detected vs authenticated',
          yLabel: 'devices per day',
          series: [
            { name: 'detected', values: detected.values },
            { name: 'authenticated', values: authenticated.values },
          ],
          note: source('daily-devices'),
        },
        'venue-devices-history',
        detected,
      ) +
      timeChart(
        {
          id: 'chart-auth-share',
          title: 'Share of detected devices that authenticate',
          yLabel: 'authenticated / detected (%)',
          series: [{ name: 'share authenticated', values: share, color: Charts.COLORS[1] }],
          yMax: 1,
          yTicks: [0, 0.25, 0.5, 0.75, 1],
          tickFormat: (t) => `${t * 100}%`,
          valueFormat: pct,
          note: source('daily-devices'),
        },
        'venue-devices-history',
        detected,
      )
    );
  }

  /**
   * The source of a chart read by whole month: the months the range overlaps (within the days the
   * file holds), and the report's arguments that give the same figures.
   */
  function monthSource(name, months) {
    if (months.length === 0) return source(name);
    const first = clip(`${data.months[months[0]]}-01`);
    const last = clip(lastDay(data.months[months[months.length - 1]]));
    const span = `${data.months[months[0]]}${months.length > 1 ? ` – ${data.months[months[months.length - 1]]}` : ''}`;
    return `Figures from ${report(name)} with <code>--from ${first} --to ${last}</code>: read by whole month (${span}, the months the range overlaps).`;
  }

  function monthsPartial(missing, stream, months) {
    if (missing.length === 0) return '';
    const first = `${missing[0]}-01`;
    const last = lastDay(missing[missing.length - 1]);
    return `Partial: no ${esc(stream)} rows${state.sel < 0 ? ' for some venues' : ''} in ${missing.join(', ')} (of ${months.length} months); sums leave them out. Load them: ${backfill(stream, clip(first), clip(last))}`;
  }

  const lastDay = (month) => new Date(Date.UTC(Number(month.slice(0, 4)), Number(month.slice(5, 7)), 0)).toISOString().slice(0, 10);
  const clip = (day) => (day < data.days[0] ? data.days[0] : day > data.days[data.days.length - 1] ? data.days[data.days.length - 1] : day);

  function users() {
    const months = F.monthsIn(state.d0, state.d1);
    const methods = F.methods(state.sel, months);
    const names = data.methods.names;
    const all = F.total(methods.sums);
    const order = names.map((_, k) => k).sort((a, b) => (methods.sums[b] ?? -1) - (methods.sums[a] ?? -1));
    const logins = F.daily('logins', state.sel, state.d0, state.d1);
    const uniques = F.daily('uniqueLogins', state.sel, state.d0, state.d1);
    const uniqueName = state.sel < 0 ? 'unique logins (sum over venues)' : 'unique logins';
    const methodStream = 'venue-users-login-methods';
    return (
      timeChart(
        {
          id: 'chart-logins',
          title: 'Logins and unique logins per day',
          yLabel: 'logins per day',
          series: [
            { name: 'logins', values: logins.values },
            { name: uniqueName, values: uniques.values },
          ],
          note: `${source('daily-logins')} Unique logins are known only for days loaded at day grain${state.sel < 0 ? '; across venues they are a sum (a guest seen at two venues counts twice)' : ''}.`,
        },
        'venue-users-history',
        logins,
      ) +
      Charts.bars({
        id: 'chart-login-methods',
        title: 'Logins by login method (share of all logins)',
        xLabel: 'logins in the months',
        yLabel: 'login method',
        labels: order.map((k) => names[k]),
        values: order.map((k) => methods.sums[k]),
        valueText: (i) => `${fmt(methods.sums[order[i]])} (${pct(ratio(methods.sums[order[i]], all))})`,
        empty: all === null ? empty(methodStream, clip(`${data.months[months[0]] ?? ''}-01`), range().to) : undefined,
        partial: monthsPartial(methods.missing, methodStream, months),
        note: monthSource('login-method-shares', months),
      }) +
      timeChart(
        {
          id: 'chart-confirmed-returning',
          title: 'Confirmed and returning users per day',
          yLabel: 'users per day',
          series: [
            { name: 'confirmed users', values: F.daily('confirmedUsers', state.sel, state.d0, state.d1).values, color: Charts.COLORS[3] },
            { name: 'returning users', values: F.daily('returningUsers', state.sel, state.d0, state.d1).values, color: Charts.COLORS[2] },
          ],
          note: source('users-summary'),
        },
        'venue-users-summary',
        F.daily('confirmedUsers', state.sel, state.d0, state.d1),
      )
    );
  }

  function ratings() {
    const months = F.monthsIn(state.d0, state.d1);
    const labels = months.map((m) => data.months[m]);
    const ratingRows = F.ratings(state.sel, months);
    const rated = ratingRows.perMonth;
    const counts = rated.map((r) => F.total(r));
    const average = rated.map((r, m) => ratio(F.total(r.map((x, k) => (x === null ? null : x * (k + 1)))), counts[m]));
    const distribution = [0, 1, 2, 3, 4].map((k) => F.total(rated.map((r) => r[k])));
    const all = F.total(distribution);
    const funnel = F.funnel(state.sel, months);
    const none = all === null ? empty('rating-summary', clip(`${labels[0] ?? ''}-01`), range().to) : undefined;
    const ratingsPartial = monthsPartial(ratingRows.missing, 'rating-summary', months);
    const note = (name) => monthSource(name, months);
    const lineSpec = {
      id: 'chart-rating-average',
      title: 'Average rating per month',
      xLabel: 'month',
      yLabel: 'average rating (1–5)',
      x: labels,
      series: [{ name: 'average rating', values: average, color: Charts.COLORS[2] }],
      yMax: 5,
      yTicks: [0, 1, 2, 3, 4, 5],
      valueFormat: (v) => fmt(v, 2),
      empty: none,
      partial: ratingsPartial,
      note: `${note('rating-distribution')} The average is taken over the 1–5 counts.`,
    };
    return (
      Charts.line(lineSpec) +
      Charts.bars({
        id: 'chart-rating-count',
        title: 'Ratings per month',
        xLabel: 'ratings',
        yLabel: 'month',
        labels,
        values: counts,
        empty: none,
        note: note('rating-distribution'),
      }) +
      Charts.bars({
        id: 'chart-rating-distribution',
        title: 'Rating distribution (1–5)',
        xLabel: 'ratings',
        yLabel: 'rating',
        labels: ['1', '2', '3', '4', '5'],
        values: distribution,
        colors: ['#dc2626', '#f97316', '#eab308', '#84cc16', '#16a34a'],
        valueText: (i) => `${fmt(distribution[i])} (${pct(ratio(distribution[i], all))})`,
        empty: none,
        partial: ratingsPartial,
        note: note('rating-distribution'),
      }) +
      Charts.bars({
        id: 'chart-rating-funnel',
        title: 'Rating requests: sent → opened → rated → commented',
        xLabel: 'rating requests',
        yLabel: 'step',
        labels: ['sent', 'opened', 'rated', 'commented'],
        values: funnel.sums,
        colors: ['#1d4ed8', '#2563eb', '#3b82f6', '#93c5fd'],
        valueText: (i) => `${fmt(funnel.sums[i])}${i > 0 ? ` (${pct(ratio(funnel.sums[i], funnel.sums[0]))} of sent)` : ''}`,
        empty: allNull(funnel.sums) ? empty('rating-statistics-summaries', clip(`${labels[0] ?? ''}-01`), range().to) : undefined,
        partial: monthsPartial(funnel.missing, 'rating-statistics-summaries', months),
        note: note('rating-request-funnel'),
      })
    );
  }

  function remarketing() {
    const embeds = F.daily('embeds', state.sel, state.d0, state.d1);
    return timeChart(
      {
        id: 'chart-embeds',
        title: 'Remarketing embeds per day',
        yLabel: 'embeds per day',
        series: [{ name: 'embeds', values: embeds.values, color: Charts.COLORS[5] }],
        note: source('remarketing-trend'),
      },
      'venue-remarketing-history',
      embeds,
    );
  }

  function peakHours() {
    const months = F.monthsIn(state.d0, state.d1);
    const peak = F.peak(state.sel, months);
    const title = `Peak hours: devices detected by hour of day and weekday (${data.tz})`;
    if (!peak) {
      const why = `No hourly rows ${state.sel < 0 ? '' : `for ${esc(venueLabel(state.sel))} `}in these months: peak hours need the hour grain (the nightly sync loads days). Load it: ${backfill('venue-devices-history', range().from, range().to, ' --grain hour')}`;
      return Charts.cells({ id: 'chart-peak-hours', title, empty: why });
    }
    const max = Math.max(0, ...peak.grid);
    const hours = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'));
    return Charts.cells({
      id: 'chart-peak-hours',
      title,
      xLabel: `hour of day (${data.tz})`,
      rows: WEEKDAYS,
      cols: hours,
      cellHeight: 24,
      scale: { max, label: 'devices detected per hour (average)' },
      cell: (i, j) => {
        const v = peak.grid[i * 24 + j];
        return { color: Charts.shade(max > 0 ? v / max : 0), title: `${WEEKDAYS[i]} ${hours[j]}:00 — ${fmt(v)} devices detected per hour (average)` };
      },
      tableHeaders: ['weekday', ...hours.map((h) => `${h}:00`)],
      tableRows: WEEKDAYS.map((d, i) => [d, ...hours.map((_, j) => fmt(peak.grid[i * 24 + j]))]),
      partial:
        state.sel < 0 && peak.venues < V
          ? `Partial: ${fmt(V - peak.venues)} of ${fmt(V)} venues have no hourly rows in these months and are left out. Load them: ${backfill('venue-devices-history', range().from, range().to, ' --grain hour')}`
          : '',
      note: `${monthSource('peak-hours', months)} The average per hour of each venue${state.sel < 0 ? `, summed over the ${fmt(peak.venues)} venue${peak.venues === 1 ? '' : 's'} with hourly rows` : ''}; darker is busier.`,
    });
  }

  function ranking() {
    const rows = F.ranking(state.d0, state.d1);
    const top = Math.min(data.topN, V);
    const labels = rows.slice(0, top).map((r) => `#${r.rank ?? '–'} ${venueLabel(r.v)}`);
    const values = rows.slice(0, top).map((r) => r.detected);
    const colors = rows.slice(0, top).map((r) => (r.v === state.sel ? '#dc2626' : Charts.COLORS[0]));
    if (V > top) {
      labels.push(`the rest (${V - top} venues)`);
      values.push(F.total(rows.slice(top).map((r) => r.detected)));
      colors.push('#9ca3af');
    }
    const mine = rows.findIndex((r) => r.v === state.sel);
    const own =
      state.sel >= 0 && mine >= top
        ? `${esc(venueLabel(state.sel))} ranks #${rows[mine].rank ?? '–'} of ${V} with ${fmt(rows[mine].detected)} devices detected. `
        : '';
    const gaps = F.daily('detected', -1, state.d0, state.d1);
    // The ranking is over every venue, whichever is chosen.
    const none = allNull(values) ? empty('venue-devices-history', range().from, range().to, '', -1) : undefined;
    return Charts.bars({
      id: 'chart-ranking',
      title: `Venues by devices detected: top ${top}${V > top ? ' and the rest' : ''}`,
      xLabel: 'devices detected in the range',
      yLabel: 'venue',
      labels,
      values,
      colors,
      empty: none,
      partial: own + partial(gaps, 'venue-devices-history', -1),
      note: `${source('venue-ranking')} Ranked over the known days of the range.`,
    });
  }

  function section(id, title, body, note = '') {
    return `<section id="${id}"><h2>${esc(title)}</h2>${note}<div class="charts">${body}</div></section>`;
  }

  /** Nothing known in the whole range: one message instead of empty charts. */
  function noData() {
    const { from, to } = range();
    const made = data.generatedAt.slice(0, 10);
    const future = from > made ? ` These days are after the page was made (${made}).` : '';
    const last = data.days.length - 1;
    const held =
      last >= 0 && F.anything(0, last)
        ? `The file holds ${data.days[0]} – ${data.days[last]}; choose another range above, or load these days and write the page again:`
        : `The file holds no figures at all${last >= 0 ? ` (${data.days[0]} – ${data.days[last]})` : ''}: load the days and write the page again:`;
    return (
      `<section id="no-data" class="no-data"><h2>No data from ${esc(from)} to ${esc(to)}</h2>` +
      `<p>The warehouse had no rows for these days when the page was made${state.sel < 0 ? '' : ` for ${esc(venueLabel(state.sel))}`}.${future} ${held}</p>` +
      `<p>${command(`venue-etl backfill --from ${from} --to ${to}${selected()}`)} then ${command(`venue-etl dashboard --from ${from} --to ${to}`)}</p></section>`
    );
  }

  function render() {
    const started = performance.now();
    Hover.hide();
    Charts.reset();
    const { from, to } = range();
    const what = state.sel < 0 ? `All venues (${fmt(V)})` : `Venue ${venueLabel(state.sel)}`;
    document.getElementById('selection').textContent = `${what}, ${from} – ${to} (${fmt(Math.max(0, state.d1 - state.d0 + 1))} days)`;
    const content = document.getElementById('content');
    const charts =
      data.days.length > 0 && F.anything(state.d0, state.d1)
        ? cards() +
          section('devices', 'Devices', devices()) +
          section('users', 'Users', users()) +
          section('ratings', 'Ratings', ratings()) +
          section('remarketing', 'Remarketing', remarketing()) +
          section('peak', 'Peak hours', peakHours()) +
          section('venues', 'Venues', ranking())
        : noData();
    content.innerHTML = charts + Health.sections(data, state, venueLabel);
    Charts.draw(content);
    document.body.dataset.selection = state.sel < 0 ? 'all' : data.venues[state.sel].id;
    document.body.dataset.range = `${from}..${to}`;
    document.body.dataset.renderMs = String(Math.round(performance.now() - started));
  }

  Controls.start(data, state, venueLabel, render);
  Hover.marks(document.getElementById('content'));
})();
