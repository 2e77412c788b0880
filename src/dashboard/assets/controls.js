// The dashboard page's controls (runs in the browser, inlined into the HTML): the venue selector
// (by name), the range control over the days the file holds (two dates and presets), the choice
// kept in the address's #fragment so a reload or a bookmark keeps it, and a redraw at the new
// width when the window is resized or printed.
// biome-ignore lint/suspicious/noRedundantUseStrict: a classic <script> inlined into the page, not a module; without it the page runs in sloppy mode.
'use strict';

// biome-ignore lint/correctness/noUnusedVariables: a classic script's global, read by dashboard.js in the same page.
const Controls = (() => {
  const PRESETS = [
    ['7', 'last 7 days'],
    ['30', 'last 30 days'],
    ['90', 'last 90 days'],
    ['all', 'all held'],
  ];

  function start(data, state, venueLabel, render) {
    const { esc, fmt } = Charts;
    const days = data.days;
    const last = days.length - 1;
    const index = (day) => {
      const i = days.indexOf(day);
      return i >= 0 ? i : day < days[0] ? 0 : last;
    };
    const select = document.getElementById('venue');
    const fromInput = document.getElementById('range-from');
    const toInput = document.getElementById('range-to');
    const presets = document.getElementById('range-presets');

    // By name: a long list is searched by typing its first letters.
    const order = data.venues.map((_, i) => i).sort((a, b) => venueLabel(a).localeCompare(venueLabel(b)) || a - b);
    select.innerHTML = `<option value="-1">All venues (${fmt(data.venues.length)})</option>${order.map((i) => `<option value="${i}" title="${esc(data.venues[i].id)}">${esc(venueLabel(i))}</option>`).join('')}`;
    presets.innerHTML = PRESETS.map(([days, text]) => `<button type="button" data-days="${days}">${esc(text)}</button>`).join('');
    for (const input of [fromInput, toInput]) {
      input.min = days[0] ?? '';
      input.max = days[last] ?? '';
    }

    function show() {
      select.value = String(state.sel);
      fromInput.value = days[state.d0] ?? '';
      toInput.value = days[state.d1] ?? '';
      for (const button of presets.querySelectorAll('button')) {
        const n = button.dataset.days === 'all' ? days.length : Number(button.dataset.days);
        button.setAttribute('aria-pressed', String(state.d1 === last && state.d0 === Math.max(0, last - n + 1)));
      }
      const fragment = `from=${days[state.d0] ?? ''}&to=${days[state.d1] ?? ''}${state.sel < 0 ? '' : `&venue=${data.venues[state.sel].id}`}`;
      history.replaceState(null, '', `#${fragment}`);
      render();
    }

    function setRange(from, to) {
      const [a, b] = [index(from), index(to)];
      state.d0 = Math.min(a, b);
      state.d1 = Math.max(a, b);
      show();
    }

    select.addEventListener('change', () => {
      state.sel = Number(select.value);
      show();
    });
    for (const input of [fromInput, toInput]) {
      input.addEventListener('change', () => {
        if (fromInput.value && toInput.value) setRange(fromInput.value, toInput.value);
      });
    }
    presets.addEventListener('click', (event) => {
      const n = event.target.dataset?.days;
      if (!n) return;
      setRange(days[n === 'all' ? 0 : Math.max(0, last - Number(n) + 1)], days[last]);
    });

    // The range the page opens on, unless the address names one.
    const asked = new URLSearchParams(location.hash.slice(1));
    const venue = data.venues.findIndex((v) => v.id === asked.get('venue'));
    state.sel = venue;
    if (days.length === 0) {
      state.d0 = 0;
      state.d1 = -1;
    } else {
      state.d0 = index(asked.get('from') || data.initial?.from || days[0]);
      state.d1 = index(asked.get('to') || data.initial?.to || days[last]);
      if (state.d0 > state.d1) [state.d0, state.d1] = [state.d1, state.d0];
    }

    let width = window.innerWidth;
    let timer;
    window.addEventListener('resize', () => {
      if (window.innerWidth === width) return;
      width = window.innerWidth;
      clearTimeout(timer);
      timer = setTimeout(() => Charts.draw(document.getElementById('content')), 120);
    });
    // Print draws at the paper's width and back.
    window.addEventListener('beforeprint', () => Charts.draw(document.getElementById('content')));
    window.addEventListener('afterprint', () => Charts.draw(document.getElementById('content')));
    show();
  }

  return { start };
})();
