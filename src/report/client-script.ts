// The report page's script (inlined by html.ts; plain browser JavaScript, no library): it reads the
// embedded data and draws the page with DOM calls. Texts from the run go in through textContent
// only. Charts are hand-written SVG: every layout is linear in jobs and dependencies, and the job
// graph is drawn on demand, its edges as one path, so 10,000 jobs stay responsive.
export const CLIENT_SCRIPT = String.raw`
(function () {
  'use strict';
  var D = JSON.parse(document.getElementById('oxo-data').textContent);
  if (D.jobRows) {
    D.jobs = D.jobRows.map(function (row) { var o = {}; for (var c = 0; c < D.jobColumns.length; c++) o[D.jobColumns[c]] = row[c]; return o; });
    delete D.jobRows;
  }
  var app = document.getElementById('app');
  var SVGNS = 'http://www.w3.org/2000/svg';
  var COLORS = { 'done': '#2f9e63', 'failed': '#d64545', 'timed out': '#d64545', 'blocked': '#e3a21a', 'running': '#3867d6', 'interrupted': '#8a63d2', 'skipped': '#b5bcc7', 'not started': '#d9dde3' };
  var PALETTE = ['#3867d6', '#20a39e', '#e07a2d', '#8a63d2', '#d6457a', '#5b8c2a', '#c4a000', '#2d7fb8', '#a35a3a', '#6b7a8f'];

  function el(tag, attrs, kids) {
    var e = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (k === 'text') e.textContent = attrs[k];
      else if (k === 'cls') e.className = attrs[k];
      else e.setAttribute(k, attrs[k]);
    }
    if (kids) for (var i = 0; i < kids.length; i++) if (kids[i] != null) e.appendChild(typeof kids[i] === 'string' ? document.createTextNode(kids[i]) : kids[i]);
    return e;
  }
  function svg(tag, attrs, text) {
    var e = document.createElementNS(SVGNS, tag);
    if (attrs) for (var k in attrs) e.setAttribute(k, attrs[k]);
    if (text != null) e.textContent = text;
    return e;
  }
  function cls(state) { return String(state).replace(/ /g, '-'); }
  function secs(s) {
    if (s == null) return '\u2013';
    if (s < 1) return (s * 1000).toFixed(0) + ' ms';
    if (s < 60) return s.toFixed(s < 10 ? 2 : 1) + ' s';
    var m = Math.floor(s / 60), h = Math.floor(m / 60);
    return h > 0 ? h + 'h ' + (m % 60) + 'm' : m + 'm ' + Math.round(s % 60) + 's';
  }
  function bytes(n) {
    if (n == null) return '\u2013';
    var u = ['B', 'KiB', 'MiB', 'GiB', 'TiB'], i = 0;
    while (n >= 1024 && i < u.length - 1) { n /= 1024; i++; }
    return (i === 0 ? n : n.toFixed(n < 10 ? 1 : 0)) + ' ' + u[i];
  }
  function when(iso) { return iso ? iso.replace('T', ' ').replace(/\.\d+Z$/, ' UTC') : '\u2013'; }
  function ruleColor(name) { return PALETTE[ruleIdx[name] % PALETTE.length]; }
  var ruleIdx = {};
  D.rules.forEach(function (r, i) { ruleIdx[r.name] = i; });

  var counts = {};
  D.jobs.forEach(function (j) { counts[j.state] = (counts[j.state] || 0) + 1; });
  var ran = D.jobs.filter(function (j) { return j.state !== 'skipped'; });
  var cpuTotal = 0, peak = 0;
  D.jobs.forEach(function (j) { if (j.cpu != null) cpuTotal += j.cpu; if (j.rss != null && j.rss > peak) peak = j.rss; });

  // Header and figures.
  var m = D.run;
  app.appendChild(el('header', { cls: 'top' }, [
    el('div', null, [
      el('h1', { text: D.title }),
      el('div', { cls: 'sub', text: m.workflow.name + ' \u00b7 run ' + m.id + ' \u00b7 started ' + when(m.startedAt) + ' \u00b7 ' + m.executor + ' executor on ' + m.host.name }),
    ]),
    el('span', { cls: 'badge ' + cls(D.status), id: 'run-status', text: D.status === 'ok' ? 'succeeded' : D.status }),
  ]));
  function card(k, v, small) { return el('div', { cls: 'card' }, [el('div', { cls: 'k', text: k }), el('div', { cls: 'v' }, [v, small ? el('small', { text: ' ' + small }) : null])]); }
  app.appendChild(el('div', { cls: 'cards' }, [
    card('Duration', secs(D.durationMs == null ? null : D.durationMs / 1000)),
    card('Jobs done', String(counts['done'] || 0), 'of ' + ran.length),
    card('Failed', String((counts['failed'] || 0) + (counts['timed out'] || 0)), counts['blocked'] ? counts['blocked'] + ' blocked' : ''),
    card('Skipped', String(counts['skipped'] || 0), 'up to date'),
    card('CPU time', secs(cpuTotal)),
    card('Peak memory', bytes(peak || null), 'one job'),
  ]));

  // Failures first.
  var failed = D.jobs.filter(function (j) { return j.state === 'failed' || j.state === 'timed out'; });
  if (failed.length > 0 || D.status === 'incomplete') {
    var fs = el('section', { cls: 'failures', id: 'failures' }, [el('h2', { text: failed.length > 0 ? 'Failures (' + failed.length + ')' : 'Incomplete run' })]);
    if (D.status === 'incomplete') fs.appendChild(el('p', { text: 'The runner stopped before it finished this record (it was killed, or crashed). Jobs that finished are shown; jobs that were running are marked running.' }));
    failed.slice(0, 50).forEach(function (j) {
      fs.appendChild(el('div', { cls: 'failure' }, [
        el('div', null, [el('b', { text: j.id }), ' \u2014 ' + (j.message || j.state) + (j.exit != null ? ' (exit ' + j.exit + ')' : '')]),
        el('div', { cls: 'sub mono', text: 'log: ' + j.log }),
        el('pre', { text: '$ ' + j.command + (j.logTail.length ? '\n\n' + j.logTail.join('\n') : '') }),
      ]));
    });
    if (failed.length > 50) fs.appendChild(el('p', { cls: 'sub', text: (failed.length - 50) + ' more failed jobs are in the table below.' }));
    app.appendChild(fs);
  }

  // The DAG: rules (always) and jobs (on demand), coloured by status.
  var dag = el('section', { id: 'dag' });
  var showJobs = el('button', { type: 'button', id: 'show-jobs', text: 'Show jobs (' + D.jobs.length + ')' });
  dag.appendChild(el('div', { cls: 'row' }, [el('h2', { text: 'Workflow graph' }), showJobs]));
  var dagBox = el('div', { cls: 'scroll' });
  dag.appendChild(dagBox);
  var legend = el('div', { cls: 'legend' });
  ['done', 'failed', 'blocked', 'running', 'interrupted', 'skipped', 'not started'].forEach(function (s) {
    legend.appendChild(el('span', null, [el('i', { style: 'background:' + COLORS[s] }), s]));
  });
  dag.appendChild(legend);
  app.appendChild(dag);

  function drawRuleGraph() {
    var W = 190, H = 50, GX = 70, GY = 22, pad = 16;
    var layers = 0, rows = 0;
    D.rules.forEach(function (r) { if (r.layer + 1 > layers) layers = r.layer + 1; if (r.order + 1 > rows) rows = r.order + 1; });
    var width = pad * 2 + layers * W + (layers - 1) * GX, height = pad * 2 + rows * H + (rows - 1) * GY;
    var s = svg('svg', { width: width, height: height, viewBox: '0 0 ' + width + ' ' + height, id: 'dag-rules', role: 'img' });
    s.appendChild(svg('title', null, 'Rule graph'));
    var pos = D.rules.map(function (r) { return [pad + r.layer * (W + GX), pad + r.order * (H + GY)]; });
    D.ruleEdges.forEach(function (e) {
      var a = pos[e[0]], b = pos[e[1]];
      var x1 = a[0] + W, y1 = a[1] + H / 2, x2 = b[0], y2 = b[1] + H / 2, mx = (x1 + x2) / 2;
      var d;
      if (D.rules[e[1]].layer - D.rules[e[0]].layer > 1) {
        // An edge that skips layers goes over the boxes between, in the gap above its rows.
        var top = Math.min(a[1], b[1]) - 8;
        d = 'M' + (a[0] + W - 20) + ',' + a[1] + ' C' + (a[0] + W) + ',' + top + ' ' + (a[0] + W + 20) + ',' + top + ' ' + (a[0] + W + 40) + ',' + top + ' L' + (x2 - 40) + ',' + top + ' C' + (x2 - 20) + ',' + top + ' ' + (x2 - 10) + ',' + top + ' ' + (x2 + 10) + ',' + (b[1] - 4);
      } else d = 'M' + x1 + ',' + y1 + ' C' + mx + ',' + y1 + ' ' + mx + ',' + y2 + ' ' + (x2 - 4) + ',' + y2;
      s.appendChild(svg('path', { d: d, fill: 'none', stroke: '#98a2b3', 'stroke-width': 1.5, 'marker-end': 'url(#arrow)' }));
    });
    var defs = svg('defs');
    var mk = svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: 8, refY: 5, markerWidth: 7, markerHeight: 7, orient: 'auto' });
    mk.appendChild(svg('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#98a2b3' }));
    defs.appendChild(mk);
    s.appendChild(defs);
    D.rules.forEach(function (r, i) {
      var g = svg('g', { 'class': 'dag-node', 'data-rule': r.name, transform: 'translate(' + pos[i][0] + ',' + pos[i][1] + ')' });
      g.appendChild(svg('title', null, r.name + ': ' + Object.keys(r.counts).map(function (k) { return r.counts[k] + ' ' + k; }).join(', ')));
      g.appendChild(svg('rect', { width: W, height: H, rx: 8, fill: '#fff', stroke: COLORS[r.state], 'stroke-width': 2 }));
      g.appendChild(svg('rect', { width: 6, height: H, rx: 3, fill: COLORS[r.state] }));
      var name = r.name.length > 24 ? r.name.slice(0, 23) + '\u2026' : r.name;
      g.appendChild(svg('text', { x: 16, y: 20, 'font-weight': 600 }, name));
      var done = r.counts['done'] || 0, skipped = r.counts['skipped'] || 0;
      var line = r.jobs + ' job' + (r.jobs === 1 ? '' : 's') + ' \u00b7 ' + (done ? done + ' done' : '') + (skipped ? (done ? ', ' : '') + skipped + ' skipped' : '');
      var bad = (r.counts['failed'] || 0) + (r.counts['timed out'] || 0);
      if (bad) line += ', ' + bad + ' failed';
      g.appendChild(svg('text', { x: 16, y: 38, 'class': 'muted' }, line));
      s.appendChild(g);
    });
    dagBox.textContent = '';
    dagBox.appendChild(s);
  }

  function drawJobGraph() {
    var X = 150, Y = 14, pad = 20;
    var perLevel = [], at = new Array(D.jobs.length), maxLevel = 0;
    D.jobs.forEach(function (j, i) {
      var l = j.level || 0;
      if (l > maxLevel) maxLevel = l;
      at[i] = perLevel[l] = (perLevel[l] || 0) + 1;
    });
    var rows = 0;
    perLevel.forEach(function (n) { if (n > rows) rows = n; });
    var width = pad * 2 + maxLevel * X + 140, height = pad * 2 + rows * Y;
    var s = svg('svg', { width: width, height: height, viewBox: '0 0 ' + width + ' ' + height, id: 'dag-jobs', role: 'img' });
    var p = function (i) { return [pad + (D.jobs[i].level || 0) * X, pad + (at[i] - 1) * Y]; };
    var d = [];
    D.jobs.forEach(function (j, i) {
      var b = p(i);
      for (var k = 0; k < j.deps.length; k++) { var a = p(j.deps[k]); d.push('M' + (a[0] + 5) + ',' + a[1] + 'L' + (b[0] - 5) + ',' + b[1]); }
    });
    s.appendChild(svg('path', { d: d.join(''), stroke: '#c3c9d3', 'stroke-width': 1, fill: 'none' }));
    var frag = document.createDocumentFragment();
    D.jobs.forEach(function (j, i) {
      var c = p(i);
      var g = svg('g', { 'class': 'dag-job', 'data-job': j.id });
      g.appendChild(svg('circle', { cx: c[0], cy: c[1], r: 5, fill: COLORS[j.state] || '#999' }));
      g.appendChild(svg('title', null, j.id + ' (' + j.state + ')'));
      if (D.jobs.length <= 400) g.appendChild(svg('text', { x: c[0] + 8, y: c[1] + 4, 'font-size': 11 }, j.id.length > 20 ? j.id.slice(0, 19) + '\u2026' : j.id));
      frag.appendChild(g);
    });
    s.appendChild(frag);
    dagBox.textContent = '';
    dagBox.appendChild(s);
  }
  var jobsShown = false;
  showJobs.addEventListener('click', function () {
    jobsShown = !jobsShown;
    if (jobsShown) drawJobGraph(); else drawRuleGraph();
    showJobs.textContent = jobsShown ? 'Show rules' : 'Show jobs (' + D.jobs.length + ')';
  });
  drawRuleGraph();

  // Timeline: one row per job slot, one bar per job, coloured by rule.
  (function () {
    var timed = D.jobs.filter(function (j) { return j.start != null; });
    var index = new Map();
    D.jobs.forEach(function (j, i) { index.set(j, i); });
    var sec = el('section', { id: 'timeline' }, [el('div', { cls: 'row' }, [el('h2', { text: 'Timeline' }), el('span', { cls: 'sub', text: 'one row per job slot \u00b7 time since the run started' })])]);
    app.appendChild(sec);
    if (timed.length === 0) { sec.appendChild(el('p', { cls: 'sub', text: 'No job ran in this run.' })); return; }
    // The axis runs from the first job's start to the last job's end (time before the first job,
    // such as version commands, is left out); labels count from the run's start.
    var lo = Infinity, span = 0;
    timed.forEach(function (j) { if (j.start < lo) lo = j.start; var e = j.end != null ? j.end : D.durationMs || j.start; if (e > span) span = e; });
    if (span <= lo) span = lo + 1;
    var slots = Math.max(D.slots, 1);
    var rowH = slots > 60 ? 6 : slots > 20 ? 10 : 22, left = 70, right = 20, top = 8, axis = 26;
    var width = 1180, plotW = width - left - right, height = top + slots * rowH + axis;
    var s = svg('svg', { width: '100%', viewBox: '0 0 ' + width + ' ' + height, id: 'gantt', role: 'img', preserveAspectRatio: 'xMinYMin meet' });
    var x = function (ms) { return left + ((ms - lo) / (span - lo)) * plotW; };
    for (var r = 0; r < slots; r++) {
      if (r % 2 === 0) s.appendChild(svg('rect', { x: left, y: top + r * rowH, width: plotW, height: rowH, fill: '#f3f5f8' }));
      if (rowH >= 10) s.appendChild(svg('text', { x: left - 8, y: top + r * rowH + rowH / 2 + 4, 'text-anchor': 'end', 'class': 'muted', 'font-size': 11 }, 'slot ' + (r + 1)));
    }
    var steps = [0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 14400, 28800, 86400];
    var step = steps[steps.length - 1];
    for (var k = 0; k < steps.length; k++) if ((span - lo) / 1000 / steps[k] <= 10) { step = steps[k]; break; }
    for (var t = Math.ceil(lo / 1000 / step) * step; t * 1000 <= span; t += step) {
      var tx = x(t * 1000);
      s.appendChild(svg('line', { x1: tx, x2: tx, y1: top, y2: top + slots * rowH, stroke: '#e3e6eb' }));
      s.appendChild(svg('text', { x: tx, y: top + slots * rowH + 16, 'text-anchor': 'middle', 'class': 'muted', 'font-size': 11 }, secs(Math.round(t * 10) / 10)));
    }
    var frag = document.createDocumentFragment();
    timed.forEach(function (j) {
      var i = index.get(j);
      var slot = j.slot != null ? j.slot : 0;
      var end = j.end != null ? j.end : span;
      var bad = j.state === 'failed' || j.state === 'timed out';
      var bar = svg('rect', { 'class': 'bar', 'data-job': j.id, 'data-i': i, x: x(j.start), y: top + slot * rowH + 1, width: Math.max(1.5, x(end) - x(j.start)), height: rowH - 2, rx: rowH > 8 ? 3 : 0,
        fill: j.state === 'running' ? '#fff' : ruleColor(j.rule), stroke: bad ? '#d64545' : j.state === 'running' ? '#3867d6' : 'none', 'stroke-width': bad ? 2 : 1 });
      frag.appendChild(bar);
    });
    s.appendChild(frag);
    // One tooltip for every bar (a <title> per bar would double the timeline's nodes).
    var tip = el('div', { cls: 'tip' });
    document.body.appendChild(tip);
    s.addEventListener('mousemove', function (ev) {
      var k = ev.target.getAttribute && ev.target.getAttribute('data-i');
      if (k == null) { tip.style.display = 'none'; return; }
      var j = D.jobs[Number(k)], end = j.end != null ? j.end : span;
      tip.textContent = j.id + '\n' + j.state + ' \u00b7 ' + secs((end - j.start) / 1000) + (j.cpu != null ? ' \u00b7 CPU ' + secs(j.cpu) : '') + (j.rss != null ? ' \u00b7 ' + bytes(j.rss) : '');
      tip.style.display = 'block';
      tip.style.left = ev.clientX + 14 + 'px';
      tip.style.top = ev.clientY + 14 + 'px';
    });
    s.addEventListener('mouseleave', function () { tip.style.display = 'none'; });
    sec.appendChild(s);
    var lg = el('div', { cls: 'legend' });
    D.rules.forEach(function (r) { if (r.state !== 'skipped') lg.appendChild(el('span', null, [el('i', { style: 'background:' + ruleColor(r.name) }), r.name])); });
    sec.appendChild(lg);
  })();

  // CPU and memory per rule: one dot per job on a shared axis, the median as a tick.
  (function () {
    var sec = el('section', { id: 'resources' }, [el('h2', { text: 'CPU and memory per rule' })]);
    var grid = el('div', { cls: 'grid2' });
    sec.appendChild(grid);
    app.appendChild(sec);
    function plot(title, pick, fmt, id) {
      var rules = D.rules.filter(function (r) { return r.state !== 'skipped'; });
      var max = 0;
      D.jobs.forEach(function (j) { var v = pick(j); if (v != null && v > max) max = v; });
      var box = el('div', null, [el('div', { cls: 'sub', text: title })]);
      grid.appendChild(box);
      if (max === 0) { box.appendChild(el('p', { cls: 'sub', text: 'not measured' })); return; }
      var rowH = 26, left = 150, width = 580, plotW = width - left - 70, height = rules.length * rowH + 24;
      var s = svg('svg', { width: '100%', viewBox: '0 0 ' + width + ' ' + height, id: id, role: 'img' });
      var xs = function (v) { return left + (v / max) * plotW; };
      [0, 0.5, 1].forEach(function (f) {
        s.appendChild(svg('line', { x1: xs(max * f), x2: xs(max * f), y1: 0, y2: rules.length * rowH, stroke: '#e3e6eb' }));
        s.appendChild(svg('text', { x: xs(max * f), y: rules.length * rowH + 16, 'text-anchor': 'middle', 'class': 'muted', 'font-size': 11 }, fmt(max * f)));
      });
      var byRule = {};
      D.jobs.forEach(function (j) { var v = pick(j); if (v != null) (byRule[j.rule] = byRule[j.rule] || []).push(v); });
      rules.forEach(function (r, i) {
        var y = i * rowH + rowH / 2;
        s.appendChild(svg('text', { x: left - 10, y: y + 4, 'text-anchor': 'end' }, r.name.length > 20 ? r.name.slice(0, 19) + '\u2026' : r.name));
        var vals = (byRule[r.name] || []).slice().sort(function (a, b) { return a - b; });
        if (vals.length === 0) return;
        var stride = Math.max(1, Math.ceil(vals.length / 300));
        for (var k = 0; k < vals.length; k += stride) s.appendChild(svg('circle', { cx: xs(vals[k]), cy: y + ((k * 7) % 9) - 4, r: 3, fill: ruleColor(r.name), 'fill-opacity': 0.55 }));
        var med = vals[vals.length >> 1];
        s.appendChild(svg('line', { x1: xs(med), x2: xs(med), y1: y - 9, y2: y + 9, stroke: '#1d2330', 'stroke-width': 2 }));
        s.appendChild(svg('text', { x: xs(vals[vals.length - 1]) + 8, y: y + 4, 'class': 'muted', 'font-size': 11 }, fmt(vals[vals.length - 1])));
      });
      box.appendChild(s);
    }
    plot('CPU time per job (user + system), median marked', function (j) { return j.cpu; }, secs, 'cpu-plot');
    plot('Peak resident memory per job, median marked', function (j) { return j.rss; }, bytes, 'rss-plot');
  })();

  // Jobs: a sortable, filterable table; failures first.
  (function () {
    var sec = el('section', { id: 'jobs' });
    var filter = el('input', { type: 'search', placeholder: 'filter jobs by id, rule or state', id: 'job-filter' });
    sec.appendChild(el('div', { cls: 'row' }, [el('h2', { text: 'Jobs (' + D.jobs.length + ')' }), filter]));
    var cols = [
      ['Job', function (j) { return j.id; }, 'id'],
      ['Rule', function (j) { return j.rule; }, ''],
      ['State', function (j) { return j.state; }, ''],
      ['Start', function (j) { return j.start; }, 'num', function (v) { return v == null ? '\u2013' : secs(v / 1000); }],
      ['Wall', function (j) { return j.start != null && j.end != null ? (j.end - j.start) / 1000 : null; }, 'num', secs],
      ['CPU', function (j) { return j.cpu; }, 'num', secs],
      ['Peak RSS', function (j) { return j.rss; }, 'num', bytes],
      ['Read', function (j) { return j.read; }, 'num', bytes],
      ['Written', function (j) { return j.written; }, 'num', bytes],
      ['Exit', function (j) { return j.exit; }, 'num'],
      ['Tries', function (j) { return j.attempts; }, 'num'],
    ];
    var table = el('table', { id: 'job-table' });
    var head = el('tr');
    cols.forEach(function (c, i) { var th = el('th', { cls: c[2] === 'num' ? 'num' : '', 'data-col': String(i), text: c[0] }); head.appendChild(th); });
    head.appendChild(el('th', { text: 'Command and log' }));
    table.appendChild(el('thead', null, [head]));
    var body = el('tbody');
    table.appendChild(body);
    var rank = { 'failed': 0, 'timed out': 0, 'running': 1, 'interrupted': 2, 'blocked': 3, 'not started': 4, 'done': 5, 'skipped': 6 };
    // Rows are made in chunks after the first screenful, so a 10,000-job page shows at once and
    // fills the table while the reader looks at the top; one delegated listener opens the details.
    function makeRow(r) {
      var j = r.job;
      var tr = el('tr', { 'data-job': j.id, 'data-state': j.state, 'data-i': String(r.i) });
      cols.forEach(function (c) {
        var v = c[1](j);
        var td = el('td', { cls: c[2] });
        if (c[0] === 'State') td.appendChild(el('span', { cls: 'st ' + cls(j.state), text: j.state }));
        else td.textContent = c[3] ? c[3](v) : v == null ? '\u2013' : String(v);
        tr.appendChild(td);
      });
      tr.appendChild(el('td', null, [el('button', { type: 'button', cls: 'more', text: j.message ? j.message : 'show' })]));
      if (query !== '' && r.text.indexOf(query) < 0) tr.style.display = 'none';
      r.tr = tr;
      return tr;
    }
    var rows = D.jobs.map(function (j, i) { return { job: j, tr: null, detail: null, i: i, text: (j.id + ' ' + j.rule + ' ' + j.state).toLowerCase() }; });
    var byIndex = rows.slice();
    rows.sort(function (a, b) { return (rank[a.job.state] - rank[b.job.state]) || a.i - b.i; });
    var query = '';
    var generation = 0;
    function fill(done) {
      var gen = ++generation;
      body.textContent = '';
      var at = 0;
      function chunk(n) {
        if (gen !== generation) return;
        var frag = document.createDocumentFragment();
        for (var end = Math.min(rows.length, at + n); at < end; at++) {
          var r = rows[at];
          frag.appendChild(r.tr || makeRow(r));
          if (r.detail) frag.appendChild(r.detail);
        }
        body.appendChild(frag);
        if (at < rows.length) setTimeout(function () { chunk(1000); }, 0);
        else if (done) done();
      }
      chunk(200);
    }
    fill(function () { document.documentElement.setAttribute('data-ready', '1'); });
    body.addEventListener('click', function (ev) {
      var b = ev.target.closest('button.more');
      if (!b) return;
      var tr = b.closest('tr');
      var r = byIndex[Number(tr.getAttribute('data-i'))];
      if (!r) return;
      if (r.detail) { r.detail.remove(); r.detail = null; return; }
      var j = r.job;
      var td = el('td', { colspan: String(cols.length + 1) }, [
        el('pre', { text: '$ ' + j.command + (j.logTail.length ? '\n\n' + j.logTail.join('\n') : '') }),
        el('div', { cls: 'sub mono', text: 'log: ' + j.log + (j.ruleLog ? ' \u00b7 rule log: ' + j.ruleLog : '') + (j.executorId ? ' \u00b7 ' + (D.run.executor === 'slurm' ? 'Slurm job ' : 'pgid ') + j.executorId : '') }),
      ]);
      r.detail = el('tr', { cls: 'detail' }, [td]);
      tr.after(r.detail);
    });
    head.addEventListener('click', function (ev) {
      var th = ev.target.closest('th[data-col]');
      if (!th) return;
      var c = cols[Number(th.getAttribute('data-col'))];
      var dir = th.getAttribute('data-dir') === 'asc' ? 'desc' : 'asc';
      Array.prototype.forEach.call(head.children, function (h) { h.removeAttribute('data-dir'); });
      th.setAttribute('data-dir', dir);
      var sign = dir === 'asc' ? 1 : -1;
      rows.sort(function (a, b) {
        var x = c[1](a.job), y = c[1](b.job);
        if (x == null && y == null) return a.i - b.i;
        if (x == null) return 1;
        if (y == null) return -1;
        return (x < y ? -1 : x > y ? 1 : a.i - b.i) * sign;
      });
      fill();
    });
    var timer;
    filter.addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(function () {
        query = filter.value.trim().toLowerCase();
        rows.forEach(function (r) {
          var hide = query !== '' && r.text.indexOf(query) < 0;
          if (r.tr) r.tr.style.display = hide ? 'none' : '';
          if (r.detail) r.detail.style.display = hide ? 'none' : '';
        });
      }, 120);
    });
    var scroll = el('div', { cls: 'scroll' }, [table]);
    sec.appendChild(scroll);
    app.appendChild(sec);
  })();

  // Provenance: what ran, with what.
  (function () {
    var sec = el('section', { id: 'provenance' }, [el('h2', { text: 'Provenance' })]);
    function kv(pairs) {
      var dl = el('dl', { cls: 'kv' });
      pairs.forEach(function (p) { if (p[1] == null || p[1] === '') return; dl.appendChild(el('dt', { text: p[0] })); dl.appendChild(el('dd', { cls: p[2] ? 'mono' : '', text: String(p[1]) })); });
      return dl;
    }
    var grid = el('div', { cls: 'grid2' });
    grid.appendChild(el('div', null, [el('h2', { text: 'Run' }), kv([
      ['Run id', m.id, 1],
      ['Status', D.status + (m.exitCode != null ? ' (exit ' + m.exitCode + ')' : '')],
      ['Started', when(m.startedAt)],
      ['Ended', when(m.endedAt)],
      ['Command', ['oxo-flow'].concat(m.commandLine).join(' '), 1],
      ['Directory', m.cwd, 1],
      ['oxo-flow', m.oxoFlowVersion],
      ['Host', m.host.name + ' \u00b7 ' + m.host.platform + '/' + m.host.arch + ' \u00b7 ' + m.host.cpus + ' CPUs \u00b7 ' + bytes(m.host.memoryBytes) + ' \u00b7 Node ' + m.host.node + (m.host.user ? ' \u00b7 user ' + m.host.user : '')],
      ['Limits', m.limits ? '-j ' + m.limits.jobs + ', ' + m.limits.cores + ' cores, ' + m.limits.memoryMb + ' MB' : ''],
    ])]));
    grid.appendChild(el('div', null, [el('h2', { text: 'Workflow' }), kv([
      ['Name', m.workflow.name],
      ['File', m.workflow.file, 1],
      ['sha256', m.workflow.sha256, 1],
    ].concat(m.sampleSheets.map(function (s) { return ['Sample sheet', s.path + '  sha256 ' + (s.sha256 || 'unreadable'), 1]; })))]));
    sec.appendChild(grid);
    var tools = el('div', { id: 'tools' }, [el('h2', { text: 'Tools and environments' })]);
    var tt = el('table');
    tt.appendChild(el('thead', null, [el('tr', null, [el('th', { text: 'Rule' }), el('th', { text: 'What' }), el('th', { text: 'Version or spec' })])]));
    var tb = el('tbody');
    m.tools.forEach(function (t) { tb.appendChild(el('tr', null, [el('td', { text: t.rule }), el('td', { cls: 'mono', text: t.command }), el('td', { text: t.version != null ? t.version : 'failed: ' + (t.error || '') })])); });
    m.environments.forEach(function (e) { tb.appendChild(el('tr', null, [el('td', { text: e.rule }), el('td', { text: e.kind }), el('td', { cls: 'mono', text: [].concat(e.spec).join(', ') + (e.fileSha256 ? '  sha256 ' + e.fileSha256 : '') })])); });
    m.versionsFiles.forEach(function (f) {
      Object.keys(f.versions).forEach(function (proc) {
        Object.keys(f.versions[proc]).forEach(function (tool) { tb.appendChild(el('tr', null, [el('td', { text: proc }), el('td', { text: tool + ' (' + f.path + ')' }), el('td', { text: f.versions[proc][tool] })])); });
      });
    });
    if (!tb.firstChild) tb.appendChild(el('tr', null, [el('td', { colspan: '3', cls: 'sub', text: 'No rule declares a version_command or an environment, and no versions.yml was found.' })]));
    tt.appendChild(tb);
    tools.appendChild(tt);
    sec.appendChild(tools);
    sec.appendChild(el('h2', { text: 'Config', style: 'margin-top:14px' }));
    sec.appendChild(el('pre', { id: 'config', text: JSON.stringify(m.config, null, 2) }));
    app.appendChild(sec);
  })();

  app.appendChild(el('footer', { text: 'Written by oxo-flow ' + m.oxoFlowVersion + ' at ' + when(D.generatedAt) + ' \u00b7 self-contained: no network, no external files' }));
})();
`;
