// The report page's styles (inlined into the HTML by html.ts): system fonts, a light page with
// cards, status colours shared by the graph, the timeline and the table. Printable.
export const STYLES = `
:root{--bg:#f5f6f8;--card:#fff;--ink:#1d2330;--muted:#667085;--line:#e3e6eb;--accent:#3867d6;
--done:#2f9e63;--failed:#d64545;--blocked:#e3a21a;--running:#3867d6;--interrupted:#8a63d2;--skipped:#b5bcc7;--notstarted:#d9dde3}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--ink);font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans",sans-serif}
main{max-width:1280px;margin:0 auto;padding:24px 28px 64px}
header.top{display:flex;align-items:flex-start;justify-content:space-between;gap:16px;margin-bottom:18px}
h1{font-size:24px;margin:0 0 4px;font-weight:650;letter-spacing:-.01em}
h2{font-size:16px;margin:0 0 12px;font-weight:620}
.sub{color:var(--muted);font-size:13px}
.badge{display:inline-block;padding:4px 12px;border-radius:999px;font-weight:600;font-size:13px;color:#fff;white-space:nowrap}
.badge.ok,.badge.done{background:var(--done)}.badge.failed{background:var(--failed)}.badge.incomplete,.badge.running{background:var(--blocked)}.badge.interrupted{background:var(--interrupted)}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:12px;margin-bottom:18px}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:12px 14px}
.card .k{color:var(--muted);font-size:12px;text-transform:uppercase;letter-spacing:.04em}
.card .v{font-size:22px;font-weight:650;margin-top:2px}
.card .v small{font-size:13px;color:var(--muted);font-weight:500}
section{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:16px 18px;margin-bottom:18px}
section.failures{border-color:#f1b5b5;background:#fff7f7}
.row{display:flex;align-items:center;justify-content:space-between;gap:12px;margin-bottom:8px}
.row h2{margin:0}
button{font:inherit;font-size:13px;border:1px solid var(--line);background:#fff;border-radius:6px;padding:4px 10px;cursor:pointer;color:var(--ink)}
button:hover{border-color:var(--accent);color:var(--accent)}
.scroll{overflow:auto;max-height:560px;border:1px solid var(--line);border-radius:8px;background:#fbfbfc}
svg text{font:12px system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;fill:var(--ink)}
svg .muted{fill:var(--muted)}
.legend{display:flex;flex-wrap:wrap;gap:12px;font-size:12px;color:var(--muted);margin-top:8px}
.legend i{display:inline-block;width:10px;height:10px;border-radius:2px;margin-right:5px;vertical-align:-1px}
.failure{border-top:1px solid #f3d0d0;padding:10px 0}.failure:first-of-type{border-top:0}
.failure b{color:var(--failed)}
pre{margin:6px 0 0;background:#1f2430;color:#e6e9ef;border-radius:6px;padding:8px 10px;font:12px/1.4 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;overflow:auto;max-height:320px;white-space:pre-wrap;word-break:break-all}
table{border-collapse:collapse;width:100%;font-size:13px}
th,td{text-align:left;padding:5px 8px;border-bottom:1px solid var(--line);vertical-align:top}
th{position:sticky;top:0;background:#f0f2f5;font-weight:600;cursor:pointer;user-select:none;white-space:nowrap;z-index:1}
th.num,td.num{text-align:right;font-variant-numeric:tabular-nums}
th[data-dir="asc"]::after{content:" \\25B2";font-size:10px}th[data-dir="desc"]::after{content:" \\25BC";font-size:10px}
td.id{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;word-break:break-all}
.st{display:inline-block;padding:1px 8px;border-radius:999px;font-size:12px;color:#fff;white-space:nowrap}
.st.done{background:var(--done)}.st.failed,.st.timed-out{background:var(--failed)}.st.blocked{background:var(--blocked)}.st.running{background:var(--running)}.st.interrupted{background:var(--interrupted)}.st.skipped{background:var(--skipped)}.st.not-started{background:var(--notstarted);color:var(--ink)}
button.more{border:0;background:none;color:var(--accent);padding:0;font-size:12px;text-align:left}
tr.detail td{background:#fafbfc}
.tip{position:fixed;display:none;pointer-events:none;background:#1f2430;color:#fff;font-size:12px;padding:6px 8px;border-radius:6px;white-space:pre;z-index:10;box-shadow:0 2px 8px rgba(0,0,0,.2)}
input[type=search]{font:inherit;font-size:13px;padding:4px 8px;border:1px solid var(--line);border-radius:6px;min-width:240px}
.grid2{display:grid;grid-template-columns:1fr 1fr;gap:18px}
@media (max-width:900px){.grid2{grid-template-columns:1fr}}
#tools{margin-top:18px}
dl.kv{display:grid;grid-template-columns:max-content 1fr;gap:4px 16px;margin:0;font-size:13px}
dl.kv dt{color:var(--muted)}dl.kv dd{margin:0;word-break:break-all}
code,.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px}
.noscript{padding:24px}
footer{color:var(--muted);font-size:12px;text-align:center;margin-top:24px}
@media print{body{background:#fff}section,.card{break-inside:avoid}.scroll{max-height:none;overflow:visible}}
`;
