// The dashboard page's state sections (runs in the browser, inlined into the HTML): who has
// access, and data health — the coverage grid over the chosen range, then freshness, the last
// runs and the failed slices as the warehouse held them when the page was made. Tables show
// readable column names and timestamps to the second (the reports give microseconds).
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic <script> inlined into the page, not a module; without it the page runs in sloppy mode.
'use strict';

// biome-ignore lint/correctness/noUnusedVariables: a classic script's global, read by dashboard.js in the same page.
const Health = (() => {
  const { esc, fmt } = Charts;

  /** [column of the report, header shown]; a column no row has is left out. */
  const FRESHNESS = [
    ['stream', 'Stream'],
    ['scopes', 'Scopes'],
    ['oldest_cursor', 'Oldest cursor'],
    ['stalest_scope', 'Stalest scope'],
    ['newest_cursor', 'Newest cursor'],
    ['days_behind', 'Days behind'],
    ['last_moved_at', 'Last moved (UTC)'],
    ['last_run_status', 'Last run'],
    ['stale', 'Stale'],
  ];
  const RUNS = [
    ['run_id', 'Run'],
    ['job', 'Job'],
    ['status', 'Status'],
    ['started_at', 'Started (UTC)'],
    ['seconds', 'Seconds'],
    ['requests', 'Requests'],
    ['retries', 'Retries'],
    ['rows', 'Rows written'],
    ['errors', 'Errors'],
  ];
  const SLICES = [
    ['stream', 'Stream'],
    ['scope', 'Scope'],
    ['scope_id', 'Scope id'],
    ['window_from', 'From'],
    ['window_to', 'To'],
    ['error_code', 'Error'],
    ['message', 'Message'],
  ];
  const ACCESS = [
    ['venue', 'Venue'],
    ['email', 'E-mail'],
    ['full_name', 'Name'],
    ['roles', 'Roles'],
    ['granted_by', 'Granted by'],
    ['permission_count', 'Permissions'],
  ];

  /** A report's value as a reader wants it: timestamps to the second in UTC, yes/no, counts grouped. */
  function cell(value) {
    if (value === null || value === undefined) return '';
    if (typeof value === 'boolean') return value ? 'yes' : 'no';
    if (typeof value === 'number') return fmt(value);
    if (typeof value === 'object') return JSON.stringify(value);
    const time = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}:\d{2})(\.\d+)?(Z|[+-]00(:?00)?)?$/.exec(value);
    return time ? `${time[1]} ${time[2]}` : String(value);
  }

  function rowsTable(rows, columns, none) {
    if (rows.length === 0) return `<p class="empty">${none}</p>`;
    const shown = columns.filter(([key]) => rows.some((r) => key in r));
    return `<div class="scroll">${Charts.table(
      shown.map(([, header]) => header),
      rows.map((r) => shown.map(([key]) => cell(r[key]))),
    )}</div>`;
  }

  function coverage(data, from, to) {
    const c = data.coverage;
    const title = 'Coverage: stream × day (loaded, missing, failed)';
    if (c.streams.length === 0)
      return Charts.cells({ id: 'chart-coverage', title, empty: 'No stream has data yet. Load it: <code class="command">venue-etl sync</code>' });
    const cols = c.days.map((d, j) => [d, j]).filter(([d]) => d >= from && d <= to);
    if (cols.length === 0) {
      return Charts.cells({
        id: 'chart-coverage',
        title,
        empty: `No coverage rows from ${from} to ${to}: no stream was loaded for these days. Load them: <code class="command">venue-etl backfill --from ${from} --to ${to}</code>`,
      });
    }
    const colors = { L: '#16a34a', M: '#d1d5db', F: '#dc2626' };
    const names = { L: 'loaded', M: 'missing', F: 'failed' };
    const count = (i, k) => cols.filter(([, j]) => c.status[i][j] === k).length;
    const missing = c.streams.map((_, i) => count(i, 'M') + count(i, 'F')).reduce((a, b) => a + b, 0);
    return Charts.cells({
      id: 'chart-coverage',
      title,
      xLabel: 'day (UTC)',
      rows: c.streams,
      cols: cols.map(([d]) => d),
      legend: [
        { name: 'loaded (every venue)', color: colors.L },
        { name: 'missing', color: colors.M },
        { name: 'failed in the last run', color: colors.F },
      ],
      cell: (i, k) => {
        const [d, j] = cols[k];
        const s = c.status[i][j];
        return { color: colors[s], title: `${c.streams[i]} ${d}: ${names[s]} (${c.loaded[i][j]} of ${c.venues[i]} venues)` };
      },
      tableHeaders: ['stream', 'days loaded', 'days missing', 'days failed', 'venues'],
      tableRows: c.streams.map((s, i) => [s, count(i, 'L'), count(i, 'M'), count(i, 'F'), c.venues[i]]),
      partial:
        missing > 0
          ? `${fmt(missing)} stream-days missing or failed in this range: <code class="command">venue-etl backfill --from ${from} --to ${to}</code> loads what is missing (loaded slices are skipped).`
          : '',
      note: `Figures from <code>venue-etl report coverage</code> with <code>--from ${from} --to ${to}</code>.`,
    });
  }

  function access(data, state, venueLabel) {
    const chosen = state.sel < 0 ? null : data.venues[state.sel].id;
    const index = new Map(data.venues.map((v, i) => [v.id, i]));
    const rows = data.access
      .filter((r) => chosen === null || r.venue_id === chosen)
      .map((r) => ({ ...r, venue: index.has(r.venue_id) ? venueLabel(index.get(r.venue_id)) : r.venue_id }));
    const accounts = new Set(rows.map((r) => r.account_id)).size;
    const whom = state.sel < 0 ? `${fmt(data.venues.length)} venues` : esc(venueLabel(state.sel));
    return (
      `<p>${fmt(accounts)} account${accounts === 1 ? '' : 's'} with access to ${whom}. Figures from <code>venue-etl report venue-access</code> (the current roles; the range does not change them).</p>` +
      rowsTable(
        state.sel < 0 ? rows.slice(0, 200) : rows,
        ACCESS,
        `No account with access to ${whom} is loaded. Load the roles: <code class="command">venue-etl sync</code>`,
      ) +
      (state.sel < 0 && rows.length > 200 ? `<p class="note">First 200 of ${fmt(rows.length)} rows; choose a venue to see all of its accounts.</p>` : '')
    );
  }

  function sections(data, state, venueLabel) {
    const from = data.days[state.d0] ?? '';
    const to = data.days[state.d1] ?? '';
    const made = data.generatedAt.slice(0, 16).replace('T', ' ');
    return (
      `<section id="access"><h2>Who has access</h2>${access(data, state, venueLabel)}</section>` +
      `<section id="health"><h2>Data health</h2><div class="charts">${coverage(data, from, to)}</div>` +
      `<p class="note">Freshness, the last runs and the failed slices are as the warehouse held them at ${esc(made)} UTC, when the page was made; the range does not change them.</p>` +
      '<h3>Freshness per stream</h3><p class="note">Figures from <code>venue-etl report freshness</code>.</p>' +
      rowsTable(data.freshness, FRESHNESS, 'No stream has been loaded yet. Load them: <code class="command">venue-etl sync</code>') +
      '<h3>Last runs</h3><p class="note">Figures from <code>venue-etl report last-runs</code>.</p>' +
      rowsTable(data.lastRuns, RUNS, 'No run is recorded yet. Run one: <code class="command">venue-etl sync</code>') +
      '<h3>Failed slices of the last run</h3><p class="note">Figures from <code>venue-etl report failed-slices</code>.</p>' +
      rowsTable(data.failedSlices, SLICES, 'None: the last run loaded every slice it planned.') +
      '</section>'
    );
  }

  return { sections, cell };
})();
