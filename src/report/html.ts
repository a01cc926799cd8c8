// One self-contained HTML page for a run: the data (data.ts) embedded as JSON, the styles and the
// drawing script inlined, nothing fetched. A Content-Security-Policy forbids every network request, so
// the page works the same from a file:// URL, an e-mail attachment or an air-gapped laptop, and a
// job name or log line can never make it load anything. Every text from the run reaches the page
// through textContent (never innerHTML), and the JSON is escaped so that it cannot close its script.
import type { ReportData } from './data.js';
import { CLIENT_SCRIPT } from './client-script.js';
import { STYLES } from './styles.js';

const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

export function renderHtml(data: ReportData): string {
  const json = JSON.stringify(compact(data)).replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="oxo-flow ${escapeHtml(data.run.oxoFlowVersion)}">
<title>${escapeHtml(data.title)}</title>
<style>${STYLES}</style>
</head>
<body>
<noscript><p class="noscript">This report draws its charts and tables with JavaScript; the raw data is in the page source (script#oxo-data), or write it with <code>oxo-flow report --format json</code>.</p></noscript>
<main id="app"></main>
<script id="oxo-data" type="application/json">${json}</script>
<script>${CLIENT_SCRIPT}</script>
</body>
</html>
`;
}

/**
 * Jobs go into the page as columns and rows (the keys once, not once per job): a 10,000-job page
 * stays well under 5 MB. The script turns them back into objects.
 */
function compact(data: ReportData): Record<string, unknown> {
  const keys = new Set<string>();
  for (const j of data.jobs) for (const k of Object.keys(j)) keys.add(k);
  const columns = [...keys];
  const rows = data.jobs.map((j) => columns.map((c) => (j as unknown as Record<string, unknown>)[c] ?? null));
  const { jobs: _jobs, ...rest } = data;
  return { ...rest, jobColumns: columns, jobRows: rows };
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
