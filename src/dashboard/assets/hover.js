// Values on hover for the dashboard's charts (runs in the browser, inlined into the HTML): a
// crosshair on the time charts that follows the pointer or the arrow keys and shows the day's
// values, and the value of any bar or cell under the pointer. One tooltip element for the page.
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic <script> inlined into the page, not a module; without it the page runs in sloppy mode.
'use strict';

// biome-ignore lint/correctness/noUnusedVariables: a classic script's global, read by charts.js and dashboard.js in the same page.
const Hover = (() => {
  let tip;

  function element() {
    if (!tip) {
      tip = document.createElement('div');
      tip.id = 'tip';
      tip.setAttribute('role', 'status');
      tip.hidden = true;
      document.body.appendChild(tip);
    }
    return tip;
  }

  /** Shows `html` beside the point (x, y) of the viewport, kept inside the viewport. */
  function show(html, x, y) {
    const t = element();
    t.innerHTML = html;
    t.hidden = false;
    const w = t.offsetWidth;
    const h = t.offsetHeight;
    const left = x + 14 + w > window.innerWidth ? Math.max(4, x - 14 - w) : x + 14;
    const top = Math.min(Math.max(4, y - h - 10), window.innerHeight - h - 4);
    t.style.left = `${left}px`;
    t.style.top = `${top}px`;
  }

  function hide() {
    if (tip) tip.hidden = true;
  }

  /** The crosshair of one drawn time chart (`box` holds its SVG). */
  function crosshair(box, spec, { fmt }) {
    const svg = box.querySelector('svg');
    const hit = svg.querySelector('.hit');
    const line = svg.querySelector('.crosshair');
    const dots = [...svg.querySelectorAll('.focus')];
    const n = spec.x.length;
    const x0 = Number(hit.getAttribute('x'));
    const width = Number(hit.getAttribute('width'));
    const top = Number(svg.dataset.top);
    const bottom = Number(svg.dataset.bottom);
    const yMax = Number(svg.dataset.ymax);
    const format = spec.valueFormat || fmt;
    let at = -1;

    function place(i) {
      at = Math.max(0, Math.min(n - 1, i));
      const x = x0 + (n <= 1 ? width / 2 : (at * width) / (n - 1));
      line.setAttribute('x1', x);
      line.setAttribute('x2', x);
      line.setAttribute('visibility', 'visible');
      spec.series.forEach((s, k) => {
        const v = s.values[at];
        const known = v !== null && v !== undefined;
        dots[k].setAttribute('visibility', known ? 'visible' : 'hidden');
        if (known) {
          dots[k].setAttribute('cx', x);
          dots[k].setAttribute('cy', bottom - (v / yMax) * (bottom - top));
        }
      });
      const extra = spec.pointNote ? spec.pointNote(at) : '';
      const html =
        `<strong>${Charts.esc(spec.x[at])}</strong>` +
        spec.series.map((s) => `<div>${Charts.esc(s.name)}: <b>${Charts.esc(format(s.values[at]))}</b></div>`).join('') +
        (extra ? `<div class="tip-note">${Charts.esc(extra)}</div>` : '');
      const box = svg.getBoundingClientRect();
      show(html, box.left + (x / Number(svg.getAttribute('width'))) * box.width, box.top + top);
      svg.dataset.at = String(at);
    }

    function leave() {
      line.setAttribute('visibility', 'hidden');
      for (const dot of dots) dot.setAttribute('visibility', 'hidden');
      delete svg.dataset.at;
      hide();
    }

    svg.addEventListener('pointermove', (event) => {
      const box = svg.getBoundingClientRect();
      const x = ((event.clientX - box.left) / box.width) * Number(svg.getAttribute('width'));
      if (x < x0 - 4 || x > x0 + width + 4) return leave();
      place(Math.round(n <= 1 ? 0 : ((x - x0) / width) * (n - 1)));
    });
    svg.addEventListener('pointerleave', leave);
    svg.addEventListener('blur', leave);
    svg.addEventListener('focus', () => place(at < 0 ? n - 1 : at));
    svg.addEventListener('keydown', (event) => {
      const step = { ArrowLeft: -1, ArrowRight: 1, PageUp: -7, PageDown: 7 }[event.key];
      if (step !== undefined) place((at < 0 ? n - 1 : at) + step);
      else if (event.key === 'Home') place(0);
      else if (event.key === 'End') place(n - 1);
      else if (event.key === 'Escape') leave();
      else return;
      event.preventDefault();
    });
  }

  /** The value of a bar or cell (its data-tip) under the pointer, anywhere under `root`. */
  function marks(root) {
    root.addEventListener('pointerover', (event) => {
      const mark = event.target.closest ? event.target.closest('[data-tip]') : null;
      if (mark) show(Charts.esc(mark.dataset.tip), event.clientX, event.clientY);
    });
    root.addEventListener('pointerout', (event) => {
      if (event.target.closest?.('[data-tip]')) hide();
    });
  }

  return { crosshair, marks, hide };
})();
