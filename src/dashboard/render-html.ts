import { ASSET_FILES, readAsset, SCRIPT_FILES } from './assets.js';
import type { PageData } from './page-data.js';

/**
 * The browser may load nothing from anywhere: no script, style, font, image or connection
 * outside this file. The page needs no network, and the policy makes that a guarantee even if
 * a later change slipped a URL in (the browser refuses it and logs a console error, which the
 * browser test catches).
 */
const CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";

/** JSON that cannot end its <script> element early (`</script>`, `<!--`) whatever the data holds. */
export function embeddedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** ONE self-contained HTML file: styles, chart code and data inline. */
export function renderHtml(data: PageData): string {
  const held = data.days.length > 0 ? `holds ${data.days[0]} to ${data.days[data.days.length - 1]}` : 'holds no day';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CONTENT_SECURITY_POLICY}">
<meta name="generator" content="venue-etl dashboard">
<title>${escapeHtml(data.title)}</title>
<style>
${readAsset(ASSET_FILES.style)}
</style>
</head>
<body>
<header>
<h1>${escapeHtml(data.title)}</h1>
<div class="meta">The file ${escapeHtml(held)} (UTC days) · peak hours in ${escapeHtml(data.tz)} · made ${escapeHtml(data.generatedAt.slice(0, 16).replace('T', ' '))} UTC</div>
<div class="controls">
<label class="field">Venue <select id="venue" aria-label="Venue shown"></select></label>
<fieldset id="range" class="range"><legend>Range</legend>
<label class="field">From <input type="date" id="range-from" aria-label="First day shown"></label>
<label class="field">To <input type="date" id="range-to" aria-label="Last day shown"></label>
<span id="range-presets" class="presets" role="group" aria-label="Ranges ending on the last day held"></span>
</fieldset>
</div>
</header>
<main>
<h2 id="selection" aria-live="polite"></h2>
<div id="content"><p>This page draws its charts with JavaScript; enable it to see them.</p></div>
</main>
<script type="application/json" id="dashboard-data">${embeddedJson(data)}</script>
${SCRIPT_FILES.map((file) => `<script>\n${readAsset(file)}\n</script>\n`).join('')}</body>
</html>
`;
}
