// The dashboard page: reads the data embedded in #dashboard-data and draws every section for
// "all venues" or for the venue chosen in the selector. No request leaves the page.
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic <script> inlined into the page, not a module; without it the page runs in sloppy mode.
'use strict';

(() => {
  const data = JSON.parse(document.getElementById('dashboard-data').textContent);
  const { esc, fmt, pct } = Charts;
  const V = data.venues.length;
  const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

  // The reports' label (sql/views/venue-labels.sql): the name, with the short id where names repeat or are missing.
  const venueLabel = (i) => data.venues[i].label;
  const report = (name) => `<code>venue-etl report ${esc(name)}</code>`;
  const source = (...names) => `Figures from ${names.map(report).join(', ')}.`;

  /** Sum of arrays position by position; a null anywhere makes that position unknown. */
  function sumArrays(arrays, length) {
    const out = new Array(length).fill(0);
    for (const array of arrays) {
      for (let k = 0; k < length; k++) {
        const v = array ? array[k] : null;
        out[k] = out[k] === null || v === null || v === undefined ? null : out[k] + v;
      }
    }
    return arrays.length === 0 ? out.fill(null) : out;
  }

  const indexes = (sel) => (sel < 0 ? data.venues.map((_, i) => i) : [sel]);
  const daily = (metric, sel) => {
    const series = data.daily[metric];
    return sel < 0 ? sumArrays(series, data.days.length) : series[sel];
  };
  const total = (values) => values.reduce((a, v) => (a === null || v === null ? null : a + v), 0);
  const ratio = (a, b) => (a === null || b === null || b === 0 ? null : a / b);

  function cards(sel) {
    const detected = total(daily('detected', sel));
    const authenticated = total(daily('authenticated', sel));
    const logins = total(daily('logins', sel));
    const embeds = total(daily('embeds', sel));
    const items = [
      ['Devices detected', fmt(detected)],
      ['Devices authenticated', fmt(authenticated)],
      ['Share authenticated', pct(ratio(authenticated, detected))],
      ['Logins', fmt(logins)],
      ['Remarketing embeds', fmt(embeds)],
    ];
    return `<div class="cards">${items.map(([k, v]) => `<div class="card"><div class="value">${esc(v)}</div><div class="label">${esc(k)}</div></div>`).join('')}</div>`;
  }

  function devices(sel) {
    const detected = daily('detected', sel);
    const authenticated = daily('authenticated', sel);
    const share = detected.map((d, k) => ratio(authenticated[k], d));
    return (
      Charts.line({
        id: 'chart-devices',
        title: 'Devices per day: detected vs authenticated',
        xLabel: 'day (UTC)',
        yLabel: 'devices per day',
        x: data.days,
        series: [
          { name: 'detected', values: detected },
          { name: 'authenticated', values: authenticated },
        ],
        note: source('daily-devices'),
      }) +
      Charts.line({
        id: 'chart-auth-share',
        title: 'Share of detected devices that authenticate',
        xLabel: 'day (UTC)',
        yLabel: 'authenticated / detected (%)',
        x: data.days,
        series: [{ name: 'share authenticated', values: share, color: Charts.COLORS[1] }],
        yMax: 1,
        yTicks: [0, 0.25, 0.5, 0.75, 1],
        tickFormat: (t) => `${t * 100}%`,
        valueFormat: pct,
        note: source('daily-devices'),
      })
    );
  }

  function users(sel) {
    const methods = data.methods.names;
    const perMethod = sumArrays(
      indexes(sel).map((i) => data.methods.logins[i]),
      methods.length,
    );
    const known = total(perMethod);
    const order = methods.map((_, k) => k).sort((a, b) => (perMethod[b] ?? -1) - (perMethod[a] ?? -1));
    const uniqueName = sel < 0 ? 'unique logins (sum over venues)' : 'unique logins';
    return (
      Charts.line({
        id: 'chart-logins',
        title: 'Logins and unique logins per day',
        xLabel: 'day (UTC)',
        yLabel: 'logins per day',
        x: data.days,
        series: [
          { name: 'logins', values: daily('logins', sel) },
          { name: uniqueName, values: daily('uniqueLogins', sel) },
        ],
        note: `${source('daily-logins')} Unique logins are known only for days loaded at day grain${sel < 0 ? '; across venues they are a sum (a guest seen at two venues counts twice)' : ''}.`,
      }) +
      Charts.bars({
        id: 'chart-login-methods',
        title: 'Logins by login method (share of all logins)',
        xLabel: 'logins in the range',
        yLabel: 'login method',
        labels: order.map((k) => methods[k]),
        values: order.map((k) => perMethod[k]),
        valueText: (i) => `${fmt(perMethod[order[i]])} (${pct(ratio(perMethod[order[i]], known))})`,
        note: source('login-method-shares'),
      }) +
      Charts.line({
        id: 'chart-confirmed-returning',
        title: 'Confirmed and returning users per day',
        xLabel: 'day (UTC)',
        yLabel: 'users per day',
        x: data.days,
        series: [
          { name: 'confirmed users', values: daily('confirmedUsers', sel), color: Charts.COLORS[3] },
          { name: 'returning users', values: daily('returningUsers', sel), color: Charts.COLORS[2] },
        ],
        note: source('users-summary'),
      })
    );
  }

  function ratings(sel) {
    const months = data.months;
    const rated = [0, 1, 2, 3, 4].map((r) =>
      sumArrays(
        indexes(sel).map((i) => data.ratings.rated[i].map((m) => m[r])),
        months.length,
      ),
    );
    const counts = months.map((_, m) => total(rated.map((r) => r[m])));
    const average = months.map((_, m) => ratio(total(rated.map((r, k) => (r[m] === null ? null : r[m] * (k + 1)))), counts[m]));
    const distribution = rated.map((r) => total(r));
    const all = total(distribution);
    const funnel = sumArrays(
      indexes(sel).map((i) => data.funnel[i]),
      4,
    );
    const steps = ['sent', 'opened', 'rated', 'commented'];
    return (
      Charts.line({
        id: 'chart-rating-average',
        title: 'Average rating per month',
        xLabel: 'month',
        yLabel: 'average rating (1–5)',
        x: months,
        series: [{ name: 'average rating', values: average, color: Charts.COLORS[2] }],
        yMax: 5,
        yTicks: [0, 1, 2, 3, 4, 5],
        valueFormat: (v) => fmt(v, 2),
        note: `${source('rating-distribution')} The average is taken over the 1–5 counts.`,
      }) +
      Charts.bars({
        id: 'chart-rating-count',
        title: 'Ratings per month',
        xLabel: 'ratings',
        yLabel: 'month',
        labels: months,
        values: counts,
        labelWidth: 90,
        note: source('rating-distribution'),
      }) +
      Charts.bars({
        id: 'chart-rating-distribution',
        title: 'Rating distribution (1–5)',
        xLabel: 'ratings',
        yLabel: 'rating',
        labels: ['1', '2', '3', '4', '5'],
        values: distribution,
        labelWidth: 60,
        colors: ['#dc2626', '#f97316', '#eab308', '#84cc16', '#16a34a'],
        valueText: (i) => `${fmt(distribution[i])} (${pct(ratio(distribution[i], all))})`,
        note: source('rating-distribution'),
      }) +
      Charts.bars({
        id: 'chart-rating-funnel',
        title: 'Rating requests: sent → opened → rated → commented',
        xLabel: 'rating requests',
        yLabel: 'step',
        labels: steps,
        values: funnel,
        labelWidth: 100,
        colors: ['#1d4ed8', '#2563eb', '#3b82f6', '#93c5fd'],
        valueText: (i) => `${fmt(funnel[i])}${i > 0 ? ` (${pct(ratio(funnel[i], funnel[0]))} of sent)` : ''}`,
        note: source('rating-request-funnel'),
      })
    );
  }

  function remarketing(sel) {
    return Charts.line({
      id: 'chart-embeds',
      title: 'Remarketing embeds per day',
      xLabel: 'day (UTC)',
      yLabel: 'embeds per day',
      x: data.days,
      series: [{ name: 'embeds', values: daily('embeds', sel), color: Charts.COLORS[5] }],
      note: source('remarketing-trend'),
    });
  }

  function peakHours(sel) {
    const none = (why) =>
      `<figure class="chart" id="chart-peak-hours"><figcaption>Peak hours (hour of day × weekday, ${esc(data.tz)})</figcaption><p class="empty">${why}</p></figure>`;
    if (!data.peak) {
      return none(
        'No hourly data in this range: the warehouse holds daily points only. Hourly points are stored when a one-day window is loaded; this chart appears once they exist.',
      );
    }
    if (sel >= 0 && !data.peak.detected[sel]) return none('No hourly data for this venue in this range.');
    // Venues without hourly rows are left out of the sum rather than making it unknown.
    const grid = sumArrays(
      indexes(sel)
        .map((i) => data.peak.detected[i])
        .filter(Boolean),
      168,
    );
    const max = Math.max(0, ...grid.filter((v) => v !== null));
    const hours = Array.from({ length: 24 }, (_, h) => String(h).padStart(2, '0'));
    return Charts.cells({
      id: 'chart-peak-hours',
      title: `Peak hours: devices detected by hour of day and weekday (${data.tz})`,
      xLabel: `hour of day (${data.tz})`,
      rows: WEEKDAYS,
      cols: hours,
      labelWidth: 50,
      cellHeight: 24,
      maxColLabels: 24,
      cell: (i, j) => {
        const v = grid[i * 24 + j];
        return {
          color: v === null ? '#e5e7eb' : Charts.shade(max > 0 ? v / max : 0),
          title: `${WEEKDAYS[i]} ${hours[j]}:00 — ${v === null ? 'unknown' : `${fmt(v)} devices detected`}`,
        };
      },
      tableHeaders: ['weekday', ...hours.map((h) => `${h}:00`)],
      tableRows: WEEKDAYS.map((d, i) => [d, ...hours.map((_, j) => fmt(grid[i * 24 + j]))]),
      note: `${source('peak-hours')} Total devices detected in each hour over the range, in ${esc(data.tz)}; darker is busier.`,
    });
  }

  function ranking(sel) {
    const top = Math.min(data.topN, V);
    const labels = [];
    const values = [];
    for (let i = 0; i < top; i++) {
      labels.push(`#${data.venues[i].rank ?? '–'} ${venueLabel(i)}`);
      values.push(data.venues[i].detected);
    }
    if (V > top) {
      labels.push(`the rest (${V - top} venues)`);
      values.push(total(data.venues.slice(top).map((v) => v.detected)));
    }
    const colors = labels.map((_, i) => (sel >= 0 && i === sel ? '#dc2626' : i < top ? Charts.COLORS[0] : '#9ca3af'));
    const own =
      sel >= 0 && sel >= top
        ? `<p class="note">${esc(venueLabel(sel))} ranks #${data.venues[sel].rank ?? '–'} of ${V} with ${fmt(data.venues[sel].detected)} devices detected.</p>`
        : '';
    return (
      Charts.bars({
        id: 'chart-ranking',
        title: `Venues by devices detected: top ${top}${V > top ? ' and the rest' : ''}`,
        xLabel: 'devices detected in the range',
        yLabel: 'venue',
        labels,
        values,
        colors,
        labelWidth: 220,
        width: 1400,
        note: source('venue-ranking'),
      }) + own
    );
  }

  function rowsTable(rows, columns) {
    if (rows.length === 0) return '<p class="empty">None.</p>';
    return `<div class="scroll">${Charts.table(
      columns,
      rows.map((r) => columns.map((c) => (r[c] === null || r[c] === undefined ? '' : typeof r[c] === 'object' ? JSON.stringify(r[c]) : r[c]))),
    )}</div>`;
  }

  function health() {
    const c = data.coverage;
    const colors = { L: '#16a34a', M: '#d1d5db', F: '#dc2626' };
    const names = { L: 'loaded', M: 'missing', F: 'failed' };
    const grid =
      c.streams.length === 0
        ? '<p class="empty">No stream has data yet.</p>'
        : Charts.cells({
            id: 'chart-coverage',
            title: 'Coverage: stream × day (loaded, missing, failed)',
            xLabel: 'day (UTC)',
            rows: c.streams,
            cols: c.days,
            labelWidth: 190,
            width: 1400,
            maxColLabels: 16,
            legend: [
              { name: 'loaded (every venue)', color: colors.L },
              { name: 'missing', color: colors.M },
              { name: 'failed in the last run', color: colors.F },
            ],
            cell: (i, j) => {
              const s = c.status[i][j];
              return { color: colors[s], title: `${c.streams[i]} ${c.days[j]}: ${names[s]} (${c.loaded[i][j]} of ${c.venues[i]} venues)` };
            },
            tableHeaders: ['stream', 'days loaded', 'days missing', 'days failed', 'venues'],
            tableRows: c.streams.map((s, i) => [s, ...['L', 'M', 'F'].map((k) => c.status[i].split('').filter((x) => x === k).length), c.venues[i]]),
            note: source('coverage'),
          });
    return (
      grid +
      `<h3>Freshness per stream</h3><p class="note">${source('freshness')}</p>` +
      rowsTable(data.freshness, [
        'stream',
        'scopes',
        'oldest_cursor',
        'stalest_scope',
        'newest_cursor',
        'days_behind',
        'last_moved_at',
        'last_run_status',
        'stale',
      ]) +
      `<h3>Last runs</h3><p class="note">${source('last-runs')}</p>` +
      rowsTable(data.lastRuns, ['run_id', 'job', 'status', 'started_at', 'seconds', 'requests', 'retries', 'rows', 'errors']) +
      `<h3>Failed slices of the last run</h3><p class="note">${source('failed-slices')}</p>` +
      rowsTable(data.failedSlices, ['stream', 'scope', 'window_from', 'window_to', 'error_code', 'message'])
    );
  }

  function access(sel) {
    const ids = new Set(indexes(sel).map((i) => data.venues[i].id));
    const rows = data.access.filter((r) => ids.has(r.venue_id)).map((r) => ({ ...r, venue: venueLabel(data.venues.findIndex((v) => v.id === r.venue_id)) }));
    const accounts = new Set(rows.map((r) => r.account_id)).size;
    return (
      `<p>${fmt(accounts)} account${accounts === 1 ? '' : 's'} with access to ${sel < 0 ? `${fmt(ids.size)} venues` : esc(venueLabel(sel))}. ${source('venue-access')}</p>` +
      rowsTable(sel < 0 ? rows.slice(0, 200) : rows, ['venue', 'email', 'full_name', 'roles', 'granted_by', 'permission_count']) +
      (sel < 0 && rows.length > 200 ? `<p class="note">First 200 of ${fmt(rows.length)} rows; choose a venue to see all of its accounts.</p>` : '')
    );
  }

  function section(id, title, body) {
    return `<section id="${id}"><h2>${esc(title)}</h2>${body}</section>`;
  }

  function render(sel) {
    const started = performance.now();
    const what = sel < 0 ? `All venues (${fmt(V)})` : `Venue ${venueLabel(sel)}`;
    document.getElementById('selection').textContent = what;
    document.getElementById('content').innerHTML =
      cards(sel) +
      section('devices', 'Devices', devices(sel)) +
      section('users', 'Users', users(sel)) +
      section('ratings', 'Ratings', ratings(sel)) +
      section('remarketing', 'Remarketing', remarketing(sel)) +
      section('peak', 'Peak hours', peakHours(sel)) +
      section('venues', 'Venues', ranking(sel)) +
      section('access', 'Who has access', access(sel)) +
      section('health', 'Data health', health());
    document.body.dataset.selection = sel < 0 ? 'all' : data.venues[sel].id;
    document.body.dataset.renderMs = String(Math.round(performance.now() - started));
  }

  const select = document.getElementById('venue');
  select.innerHTML = `<option value="-1">All venues (${fmt(V)})</option>${data.venues.map((v, i) => `<option value="${i}" title="${esc(v.id)}">#${v.rank ?? '–'} ${esc(venueLabel(i))}</option>`).join('')}`;
  select.addEventListener('change', () => render(Number(select.value)));
  render(-1);
})();
