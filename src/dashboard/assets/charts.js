// Hand-rolled SVG charts for the dashboard page (runs in the browser, inlined into the HTML).
// A chart is drawn at the width its box has on screen (Charts.draw), so its text keeps its size
// from a 390 px phone to a 1920 px screen; every label is measured and kept inside the chart's
// box. Time charts carry a crosshair (pointer and arrow keys) and every mark a hover value.
// Every text that comes from the warehouse goes through esc(): venue names arrive from the
// event receiver, i.e. from outside.
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic <script> inlined into the page, not a module; without it the page runs in sloppy mode.
'use strict';

// biome-ignore lint/correctness/noUnusedVariables: a classic script's global, read by dashboard.js in the same page.
const Charts = (() => {
  const COLORS = ['#2563eb', '#16a34a', '#d97706', '#9333ea', '#dc2626', '#0891b2', '#4b5563', '#db2777'];
  const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif';
  const specs = new Map();
  let counter = 0;
  let measure;

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

  /** Width of a text in the charts' font (a canvas measures it; 0.62 em per character without one). */
  function textWidth(text) {
    if (measure === undefined) {
      const context = document.createElement('canvas').getContext('2d');
      if (context) context.font = FONT;
      measure = context ? (s) => context.measureText(s).width : (s) => s.length * 7.5;
    }
    return Math.ceil(measure(String(text)));
  }

  /** `text` cut with "…" to fit `width` px. */
  function fit(text, width) {
    let s = String(text);
    if (textWidth(s) <= width) return s;
    while (s.length > 1 && textWidth(`${s}…`) > width) s = s.slice(0, -1);
    return `${s}…`;
  }

  /** 0..max rounded up to 1, 2, 2.5 or 5 × 10^k, with 4–5 ticks. */
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

  /**
   * Labels along an axis, each centred on its position but moved inward where it would leave
   * `lo..hi`, and dropped where it would overlap the one kept before it (the last is kept first:
   * the range's end is what a reader looks for).
   */
  function axisLabels(items, lo, hi, y) {
    const placed = [];
    const ordered = items.length > 0 ? [items[items.length - 1], ...items.slice(0, -1)] : [];
    for (const item of ordered) {
      const w = textWidth(item.text);
      const cx = Math.min(Math.max(item.x, lo + w / 2), hi - w / 2);
      const box = [cx - w / 2 - 4, cx + w / 2 + 4];
      if (placed.some((p) => box[0] < p.box[1] && box[1] > p.box[0])) continue;
      placed.push({ cx, box, text: item.text });
    }
    return placed.map((p) => `<text class="tick" x="${p.cx.toFixed(1)}" y="${y}" text-anchor="middle">${esc(p.text)}</text>`).join('');
  }

  function legend(series) {
    return `<ul class="legend">${series.map((s, i) => `<li><span class="swatch" style="background:${s.color || COLORS[i % COLORS.length]}"></span>${esc(s.name)}</li>`).join('')}</ul>`;
  }

  function table(headers, rows) {
    const head = headers.map((h) => `<th scope="col">${esc(h)}</th>`).join('');
    const body = rows.map((r) => `<tr>${r.map((c, i) => (i === 0 ? `<th scope="row">${esc(c)}</th>` : `<td>${esc(c)}</td>`)).join('')}</tr>`).join('');
    return `<table><thead><tr>${head}</tr></thead><tbody>${body}</tbody></table>`;
  }

  /**
   * One <figure>: title, legend, the plot's box (drawn by draw() at its width), notes and the data
   * table in <details>, the accessible fallback. `empty` replaces the plot with what is missing.
   */
  function figure(kind, spec, makeTable) {
    const id = spec.id || `chart-${++counter}`;
    specs.set(id, { kind, spec });
    const notes = [spec.partial ? `<p class="partial">${spec.partial}</p>` : '', spec.note ? `<p class="note">${spec.note}</p>` : ''].join('');
    if (spec.empty) {
      specs.delete(id);
      return `<figure class="chart empty-chart" id="${id}"><figcaption>${esc(spec.title)}</figcaption><p class="empty">${spec.empty}</p>${notes}</figure>`;
    }
    return (
      `<figure class="chart" id="${id}"><figcaption>${esc(spec.title)}</figcaption>${spec.legend ? legend(spec.legend) : ''}` +
      `<div class="plot" data-chart="${id}"></div>${notes}<details class="table"><summary>Data table</summary>${makeTable()}</details></figure>`
    );
  }

  /** Lines over dates; a null value breaks its line (unknown is not 0). */
  function line(spec) {
    const rows = () => spec.x.map((d, i) => [d, ...spec.series.map((s) => (spec.valueFormat || fmt)(s.values[i]))]);
    return figure('line', { ...spec, legend: spec.series }, () => table([spec.xLabel, ...spec.series.map((s) => s.name)], rows()));
  }

  function drawLine(spec, W) {
    const H = W < 520 ? 210 : 250;
    const n = spec.x.length;
    const max = Math.max(0, ...spec.series.flatMap((s) => s.values.filter((v) => v !== null)));
    const scale = spec.yMax !== undefined ? { top: spec.yMax, ticks: spec.yTicks } : niceScale(max);
    const tickText = (t) => (spec.tickFormat ? spec.tickFormat(t) : fmt(t));
    const m = { l: Math.max(...scale.ticks.map((t) => textWidth(tickText(t)))) + 10, r: 8, t: 26, b: 44 };
    const x = (i) => m.l + (n <= 1 ? (W - m.l - m.r) / 2 : (i * (W - m.l - m.r)) / (n - 1));
    const y = (v) => H - m.b - (v / scale.top) * (H - m.t - m.b);
    const grid = scale.ticks
      .map(
        (t) =>
          `<line class="grid" x1="${m.l}" x2="${W - m.r}" y1="${y(t)}" y2="${y(t)}"/><text class="tick" x="${m.l - 6}" y="${y(t) + 4}" text-anchor="end">${esc(tickText(t))}</text>`,
      )
      .join('');
    const every = Math.max(1, Math.ceil(n / Math.max(2, Math.floor((W - m.l - m.r) / (textWidth('2026-12-31') + 24)))));
    const ticks = spec.x.map((d, i) => ({ x: x(i), text: d })).filter((_, i) => i % every === 0 || i === n - 1);
    const paths = spec.series
      .map((s, k) => {
        const color = s.color || COLORS[k % COLORS.length];
        let d = '';
        let pen = false;
        const dots = [];
        s.values.forEach((v, i) => {
          if (v === null || v === undefined) {
            pen = false;
            return;
          }
          const next = s.values[i + 1];
          // A known day between two unknown ones has no segment: a dot shows it.
          if (!pen && (next === null || next === undefined))
            dots.push(`<circle class="mark" cx="${x(i).toFixed(1)}" cy="${y(v).toFixed(1)}" r="2.5" fill="${color}"/>`);
          d += `${pen ? 'L' : 'M'}${x(i).toFixed(1)} ${y(v).toFixed(1)}`;
          pen = true;
        });
        return `<path class="mark" d="${d}" fill="none" stroke="${color}" stroke-width="1.6"><title>${esc(s.name)}</title></path>${dots.join('')}`;
      })
      .join('');
    const focus = spec.series.map((s, k) => `<circle class="focus" r="3.5" fill="${s.color || COLORS[k % COLORS.length]}" visibility="hidden"/>`).join('');
    return (
      `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" data-top="${m.t}" data-bottom="${H - m.b}" data-ymax="${scale.top}" role="img" tabindex="0" aria-label="${esc(spec.title)} (arrow keys move the crosshair)"><title>${esc(spec.title)}</title>` +
      `<text class="axis" x="0" y="12">${esc(fit(spec.yLabel, W))}</text>${grid}${axisLabels(ticks, 0, W, H - m.b + 16)}${paths}` +
      `<line class="crosshair" x1="0" x2="0" y1="${m.t}" y2="${H - m.b}" visibility="hidden"/>${focus}` +
      `<rect class="hit" x="${m.l}" y="${m.t}" width="${Math.max(1, W - m.l - m.r)}" height="${H - m.t - m.b}" fill="transparent"/>` +
      `<text class="axis" x="${(W + m.l - m.r) / 2}" y="${H - 6}" text-anchor="middle">${esc(fit(spec.xLabel, W))}</text></svg>`
    );
  }

  /** Horizontal bars: rankings, shares, distributions, funnels. */
  function bars(spec) {
    const tableRows = () => spec.labels.map((label, i) => [label, spec.valueText ? spec.valueText(i) : fmt(spec.values[i])]);
    return figure('bars', spec, () => table([spec.yLabel, spec.xLabel], tableRows()));
  }

  function drawBars(spec, W) {
    const rowH = 24;
    const narrow = W < 520;
    const shown = (i) =>
      spec.values[i] === null || spec.values[i] === undefined ? 'unknown' : spec.valueText && !narrow ? spec.valueText(i) : fmt(spec.values[i]);
    const labelWidth = Math.min(Math.max(...spec.labels.map((l) => textWidth(l)), 20) + 10, spec.labelWidth || 220, Math.floor(W * 0.4));
    const valueWidth = Math.max(...spec.labels.map((_, i) => textWidth(shown(i)))) + 10;
    const m = { l: labelWidth, r: Math.min(valueWidth, Math.floor(W * 0.35)), t: 6, b: 40 };
    const H = m.t + m.b + rowH * Math.max(1, spec.labels.length);
    const max = Math.max(0, ...spec.values.filter((v) => v !== null));
    const scale = niceScale(max);
    const x = (v) => m.l + (v / scale.top) * (W - m.l - m.r);
    const grid = scale.ticks.map((t) => `<line class="grid" x1="${x(t)}" x2="${x(t)}" y1="${m.t}" y2="${H - m.b}"/>`).join('');
    const ticks = axisLabels(
      scale.ticks.map((t) => ({ x: x(t), text: fmt(t) })),
      0,
      W,
      H - m.b + 15,
    );
    const rows = spec.labels
      .map((label, i) => {
        const v = spec.values[i];
        const top = m.t + i * rowH;
        const mid = top + rowH / 2 + 4;
        const text = `<text class="tick" x="${m.l - 6}" y="${mid}" text-anchor="end">${esc(fit(label, m.l - 8))}</text>`;
        const value = fit(shown(i), W - m.l - 4);
        if (v === null || v === undefined) return `${text}<text class="tick" x="${m.l + 4}" y="${mid}">${esc(value)}</text>`;
        const end = x(v);
        // The value sits after its bar, or inside it where it would leave the chart.
        const inside = end + 4 + textWidth(value) > W;
        const tip = `${label}: ${spec.valueText ? spec.valueText(i) : fmt(v)}`;
        return (
          `${text}<rect class="mark" x="${m.l}" y="${top + 3}" width="${Math.max(0.5, end - m.l).toFixed(1)}" height="${rowH - 6}" fill="${spec.colors ? spec.colors[i] : COLORS[0]}" data-tip="${esc(tip)}"><title>${esc(tip)}</title></rect>` +
          `<text class="tick${inside ? ' inside' : ''}" x="${inside ? end - 4 : end + 4}" y="${mid}"${inside ? ' text-anchor="end"' : ''}>${esc(value)}</text>`
        );
      })
      .join('');
    return (
      `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(spec.title)}"><title>${esc(spec.title)}</title>${grid}${rows}${ticks}` +
      `<text class="axis" x="${(W + m.l - m.r) / 2}" y="${H - 6}" text-anchor="middle">${esc(fit(spec.xLabel, W))}</text></svg>`
    );
  }

  /** A grid of cells coloured by value (peak hours, with a colour scale) or by status (coverage). */
  function cells(spec) {
    return figure('cells', spec, () => table(spec.tableHeaders, spec.tableRows));
  }

  function drawCells(spec, W) {
    const cols = spec.cols.length;
    const labelWidth = Math.min(Math.max(...spec.rows.map((r) => textWidth(r))) + 10, spec.labelWidth || 200, Math.floor(W * 0.4));
    const scaleH = spec.scale ? 40 : 0;
    const m = { l: labelWidth, r: 8, t: 6, b: 40 + scaleH };
    const cw = Math.max(0.5, (W - m.l - m.r) / cols);
    const ch = spec.cellHeight || 20;
    const H = m.t + m.b + ch * spec.rows.length;
    const every = Math.max(1, Math.ceil(cols / Math.max(1, Math.floor((W - m.l - m.r) / (Math.max(...spec.cols.map((c) => textWidth(c))) + 8)))));
    const colLabels = axisLabels(
      spec.cols.map((c, j) => ({ x: m.l + j * cw + cw / 2, text: c })).filter((_, j) => j % every === 0),
      0,
      W,
      m.t + ch * spec.rows.length + 15,
    );
    let body = '';
    spec.rows.forEach((row, i) => {
      body += `<text class="tick" x="${m.l - 6}" y="${m.t + i * ch + ch / 2 + 4}" text-anchor="end">${esc(fit(row, m.l - 8))}</text>`;
      for (let j = 0; j < cols; j++) {
        const cell = spec.cell(i, j);
        if (!cell) continue;
        body += `<rect class="mark" x="${(m.l + j * cw).toFixed(2)}" y="${m.t + i * ch}" width="${Math.max(0.5, cw - (cw > 3 ? 1 : 0)).toFixed(2)}" height="${ch - 1}" fill="${cell.color}" data-tip="${esc(cell.title)}"><title>${esc(cell.title)}</title></rect>`;
      }
    });
    const axisY = m.t + ch * spec.rows.length + 33;
    return (
      `<svg viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" role="img" aria-label="${esc(spec.title)}"><title>${esc(spec.title)}</title>${body}${colLabels}` +
      `<text class="axis" x="${(W + m.l - m.r) / 2}" y="${axisY}" text-anchor="middle">${esc(fit(spec.xLabel, W))}</text>` +
      (spec.scale ? colourScale(spec.scale, m.l, W - m.r, axisY + 10) : '') +
      '</svg>'
    );
  }

  /** The heatmap's colour scale: the shades from 0 to the maximum, with both ends and the unit. */
  function colourScale(scale, left, right, top) {
    const width = Math.min(right - left, 320);
    const steps = 10;
    let swatches = '';
    for (let k = 0; k < steps; k++) {
      swatches += `<rect x="${(left + (k * width) / steps).toFixed(1)}" y="${top}" width="${(width / steps + 0.5).toFixed(1)}" height="10" fill="${shade(k / (steps - 1))}"/>`;
    }
    const hi = fmt(scale.max);
    return (
      `<g class="colour-scale" aria-label="colour scale: ${esc(scale.label)}, 0 to ${esc(hi)}">${swatches}` +
      `<text class="tick" x="${left}" y="${top + 22}">0</text>` +
      `<text class="tick scale-label" x="${left + width / 2}" y="${top + 22}" text-anchor="middle">${esc(fit(scale.label, width - 2 * textWidth(hi) - 24))}</text>` +
      `<text class="tick" x="${left + width}" y="${top + 22}" text-anchor="end">${esc(hi)}</text></g>`
    );
  }

  /** Light to dark blue for 0..1. */
  function shade(t) {
    const k = Math.max(0, Math.min(1, t));
    const mix = (a, b) => Math.round(a + (b - a) * k);
    return `rgb(${mix(239, 30)},${mix(246, 64)},${mix(255, 175)})`;
  }

  const DRAW = { line: drawLine, bars: drawBars, cells: drawCells };

  /** Draws every chart box under `root` at its current width. */
  function draw(root) {
    for (const box of root.querySelectorAll('.plot[data-chart]')) {
      const entry = specs.get(box.dataset.chart);
      if (!entry) continue;
      const W = Math.max(200, Math.floor(box.clientWidth));
      box.innerHTML = DRAW[entry.kind](entry.spec, W);
      box.dataset.width = String(W);
      if (entry.kind === 'line') Hover.crosshair(box, entry.spec, { fmt });
    }
  }

  /** Forgets the specs of a page about to be replaced. */
  function reset() {
    specs.clear();
  }

  return { line, bars, cells, draw, reset, table, esc, fmt, pct, shade, textWidth, COLORS };
})();
