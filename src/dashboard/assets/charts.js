// Hand-rolled SVG charts for the dashboard page (runs in the browser, inlined into the HTML).
// Each function returns the markup of one <figure>: a title, an SVG with axis labels and units,
// and a data table in <details> as the accessible fallback. Every text that comes from the
// warehouse goes through esc(): venue names arrive from the event receiver, i.e. from outside.
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic <script> inlined into the page, not a module; without it the page runs in sloppy mode.
'use strict';

// biome-ignore lint/correctness/noUnusedVariables: a classic script's global, read by dashboard.js in the same page.
const Charts = (() => {
  const COLORS = ['#2563eb', '#16a34a', '#d97706', '#9333ea', '#dc2626', '#0891b2', '#4b5563', '#db2777'];
  let counter = 0;

  function esc(value) {
    return String(value).replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]);
  }

  function fmt(value, digits) {
    if (value === null || value === undefined || Number.isNaN(value)) return '–';
    if (digits !== undefined) return value.toFixed(digits);
    return Math.abs(value) >= 1000 ? Math.round(value).toLocaleString('en-US') : String(Math.round(value * 100) / 100);
  }

  function pct(value) {
    return value === null || value === undefined ? '–' : `${(value * 100).toFixed(1)}%`;
  }

  /** 0..max rounded up to 1, 2 or 5 × 10^k, with 4–5 ticks. */
  function niceScale(max) {
    if (!(max > 0)) return { top: 1, ticks: [0, 1] };
    const raw = max / 4;
    const power = 10 ** Math.floor(Math.log10(raw));
    const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw);
    const top = Math.ceil(max / step) * step;
    const ticks = [];
    for (let t = 0; t <= top + step / 2; t += step) ticks.push(t);
    return { top, ticks };
  }

  function figure(id, title, note, svg, table) {
    return (
      `<figure class="chart" id="${id}"><figcaption>${esc(title)}</figcaption>${svg}` +
      (note ? `<p class="note">${note}</p>` : '') +
      `<details class="table"><summary>Data table</summary>${table}</details></figure>`
    );
  }

  function table(headers, rows) {
    const head = headers.map((h) => `<th scope="col">${esc(h)}</th>`).join('');
    const body = rows.map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${esc(c)}</th>` : `<td>${esc(c)}</td>`)).join('')}</tr>`).join('');
    return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
  }

  function legend(series) {
    return `<ul class="legend">${series.map((s, i) => `<li><span class="swatch" style="background:${s.color || COLORS[i % COLORS.length]}"></span>${esc(s.name)}</li>`).join('')}</ul>`;
  }

  /** Lines over dates; a null value breaks its line (unknown is not 0). */
  function line(spec) {
    const W = spec.width || 720;
    const id = spec.id || `chart-${++counter}`;
    const H = 240;
    const m = { l: 64, r: 16, t: 12, b: 44 };
    const n = spec.x.length;
    const max = Math.max(0, ...spec.series.flatMap((s) => s.values.filter((v) => v !== null)));
    const scale = spec.yMax !== undefined ? { top: spec.yMax, ticks: spec.yTicks } : niceScale(max);
    const x = (i) => m.l + (n <= 1 ? 0 : (i * (W - m.l - m.r)) / (n - 1));
    const y = (v) => H - m.b - (v / scale.top) * (H - m.t - m.b);
    const grid = scale.ticks
      .map(
        (t) =>
          `<line class="grid" x1="${m.l}" x2="${W - m.r}" y1="${y(t)}" y2="${y(t)}"/><text class="tick" x="${m.l - 6}" y="${y(t) + 4}" text-anchor="end">${esc(spec.tickFormat ? spec.tickFormat(t) : fmt(t))}</text>`,
      )
      .join('');
    const every = Math.max(1, Math.ceil(n / 6));
    const xTicks = spec.x
      .map((d, i) => (i % every === 0 || i === n - 1 ? `<text class="tick" x="${x(i)}" y="${H - m.b + 16}" text-anchor="middle">${esc(d)}</text>` : ''))
      .join('');
    const paths = spec.series
      .map((s, k) => {
        let d = '';
        let pen = false;
        s.values.forEach((v, i) => {
          if (v === null || v === undefined) {
            pen = false;
            return;
          }
          d += `${pen ? 'L' : 'M'}${x(i).toFixed(1)} ${y(v).toFixed(1)}`;
          pen = true;
        });
        const single = n === 1 && s.values[0] !== null ? `<circle class="mark" cx="${x(0)}" cy="${y(s.values[0])}" r="3" fill="${s.color || COLORS[k]}"/>` : '';
        return `<path class="mark" d="${d}" fill="none" stroke="${s.color || COLORS[k % COLORS.length]}" stroke-width="1.6"><title>${esc(s.name)}</title></path>${single}`;
      })
      .join('');
    const svg =
      `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(spec.title)}"><title>${esc(spec.title)}</title>${grid}${xTicks}${paths}` +
      `<text class="axis" x="${(W + m.l) / 2}" y="${H - 6}" text-anchor="middle">${esc(spec.xLabel)}</text>` +
      `<text class="axis" transform="translate(14 ${(H - m.b + m.t) / 2}) rotate(-90)" text-anchor="middle">${esc(spec.yLabel)}</text></svg>`;
    const rows = spec.x.map((d, i) => [d, ...spec.series.map((s) => (spec.valueFormat ? spec.valueFormat(s.values[i]) : fmt(s.values[i])))]);
    return figure(id, spec.title, spec.note, legend(spec.series) + svg, table([spec.xLabel, ...spec.series.map((s) => s.name)], rows));
  }

  /** Horizontal bars: rankings, shares, distributions, funnels. */
  function bars(spec) {
    const W = spec.width || 720;
    const id = spec.id || `chart-${++counter}`;
    const rowH = 22;
    const m = { l: spec.labelWidth || 170, r: 70, t: 8, b: 40 };
    const H = m.t + m.b + rowH * Math.max(1, spec.labels.length);
    const max = Math.max(0, ...spec.values.filter((v) => v !== null));
    const scale = niceScale(max);
    const x = (v) => m.l + (v / scale.top) * (W - m.l - m.r);
    const grid = scale.ticks
      .map(
        (t) =>
          `<line class="grid" x1="${x(t)}" x2="${x(t)}" y1="${m.t}" y2="${H - m.b}"/><text class="tick" x="${x(t)}" y="${H - m.b + 14}" text-anchor="middle">${esc(fmt(t))}</text>`,
      )
      .join('');
    const rows = spec.labels
      .map((label, i) => {
        const v = spec.values[i];
        const top = m.t + i * rowH;
        const text = `<text class="tick" x="${m.l - 6}" y="${top + rowH / 2 + 4}" text-anchor="end">${esc(label.length > 26 ? `${label.slice(0, 25)}…` : label)}</text>`;
        if (v === null || v === undefined) return `${text}<text class="tick" x="${m.l + 4}" y="${top + rowH / 2 + 4}">unknown</text>`;
        const shown = spec.valueText ? spec.valueText(i) : fmt(v);
        return (
          `${text}<rect class="mark" x="${m.l}" y="${top + 3}" width="${Math.max(0.5, x(v) - m.l).toFixed(1)}" height="${rowH - 6}" fill="${spec.colors ? spec.colors[i] : COLORS[0]}"><title>${esc(label)}: ${esc(shown)}</title></rect>` +
          `<text class="tick" x="${x(v) + 4}" y="${top + rowH / 2 + 4}">${esc(shown)}</text>`
        );
      })
      .join('');
    const svg =
      `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(spec.title)}"><title>${esc(spec.title)}</title>${grid}${rows}` +
      `<text class="axis" x="${(W + m.l - m.r) / 2}" y="${H - 6}" text-anchor="middle">${esc(spec.xLabel)}</text></svg>`;
    const tableRows = spec.labels.map((label, i) => [label, spec.valueText ? spec.valueText(i) : fmt(spec.values[i])]);
    return figure(id, spec.title, spec.note, svg, table([spec.yLabel, spec.xLabel], tableRows));
  }

  /** A grid of cells coloured by value (peak hours) or by status (coverage). */
  function cells(spec) {
    const W = spec.width || 720;
    const id = spec.id || `chart-${++counter}`;
    const cols = spec.cols.length;
    const m = { l: spec.labelWidth || 70, r: 12, t: 8, b: 44 };
    const cw = Math.max(1, (W - m.l - m.r) / cols);
    const ch = spec.cellHeight || 20;
    const H = m.t + m.b + ch * spec.rows.length;
    const every = Math.max(1, Math.ceil(cols / (spec.maxColLabels || 12)));
    const colLabels = spec.cols
      .map((c, j) => (j % every === 0 ? `<text class="tick" x="${m.l + j * cw + cw / 2}" y="${H - m.b + 14}" text-anchor="middle">${esc(c)}</text>` : ''))
      .join('');
    let body = '';
    spec.rows.forEach((row, i) => {
      body += `<text class="tick" x="${m.l - 6}" y="${m.t + i * ch + ch / 2 + 4}" text-anchor="end">${esc(row.length > 28 ? `${row.slice(0, 27)}…` : row)}</text>`;
      for (let j = 0; j < cols; j++) {
        const cell = spec.cell(i, j);
        if (!cell) continue;
        body += `<rect class="mark" x="${(m.l + j * cw).toFixed(2)}" y="${m.t + i * ch}" width="${Math.max(0.6, cw - 1).toFixed(2)}" height="${ch - 1}" fill="${cell.color}"><title>${esc(cell.title)}</title></rect>`;
      }
    });
    const svg =
      `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(spec.title)}"><title>${esc(spec.title)}</title>${body}${colLabels}` +
      `<text class="axis" x="${(W + m.l) / 2}" y="${H - 6}" text-anchor="middle">${esc(spec.xLabel)}</text></svg>`;
    return figure(id, spec.title, spec.note, (spec.legend ? legend(spec.legend) : '') + svg, table(spec.tableHeaders, spec.tableRows));
  }

  /** Light to dark blue for 0..1. */
  function shade(t) {
    const k = Math.max(0, Math.min(1, t));
    const mix = (a, b) => Math.round(a + (b - a) * k);
    return `rgb(${mix(239, 30)},${mix(246, 64)},${mix(255, 175)})`;
  }

  return { line, bars, cells, table, esc, fmt, pct, shade, COLORS };
})();
