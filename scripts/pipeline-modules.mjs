#!/usr/bin/env node
// Maintainer's script: writes knowledge-graph/pipeline-modules.tsv, the module lists of public
// pipelines that the graph check (test/ai/knowledge/graph-check.test.ts) holds pipeline credits against.
// Usage: node scripts/pipeline-modules.mjs GIT_DIR... (each a clone, bare or not, of an nf-core pipeline)
// For each clone: the nf-core modules named in modules.json and the pipeline's own modules
// (modules/local/), or for a DSL1 pipeline the processes of main.nf, at the clone's HEAD, with the
// commit and its date.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const git = (dir, ...args) => execFileSync('git', ['--git-dir', dir, ...args], { encoding: 'utf8', maxBuffer: 64 << 20 });
const gitDir = (dir) => (fs.existsSync(path.join(dir, '.git')) ? path.join(dir, '.git') : dir);

const rows = [];
for (const arg of process.argv.slice(2)) {
  const dir = gitDir(arg);
  const [commit, date] = git(dir, 'log', '-1', '--format=%H %cs').trim().split(' ');
  const remote = (() => {
    try {
      return JSON.parse(execFileSync('git', ['--git-dir', dir, 'show', 'HEAD:modules.json'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    } catch {
      return undefined;
    }
  })();
  const name = remote?.name ?? path.basename(path.resolve(arg, arg.endsWith('repo') ? '..' : '.')).replace('+', '/');
  const modules = new Set();
  for (const repo of Object.values(remote?.repos ?? {})) for (const org of Object.values(repo.modules ?? {})) for (const m of Object.keys(org)) modules.add(m.toLowerCase());
  let local = '';
  try {
    local = git(dir, 'ls-tree', '-r', '--name-only', 'HEAD', 'modules/local');
  } catch {}
  for (const file of local.split('\n').filter(Boolean)) {
    const rel = file.slice('modules/local/'.length);
    const top = rel.includes('/') ? rel.slice(0, rel.lastIndexOf('/')) : rel.replace(/\.nf$/, '');
    if (top.endsWith('/tests') || top.includes('/tests/') || /\.(md|yml|yaml|config|snap|json)$/.test(top)) continue;
    modules.add(`local/${top.toLowerCase()}`);
  }
  // A DSL1 pipeline (no modules.json) declares its processes in main.nf.
  if (remote === undefined) {
    let main = '';
    try {
      main = git(dir, 'show', 'HEAD:main.nf');
    } catch {}
    for (const m of main.matchAll(/^\s*process\s+([A-Za-z0-9_]+)\s*\{/gm)) modules.add(`process/${m[1].toLowerCase()}`);
  }
  rows.push([name, commit.slice(0, 12), date, [...modules].sort().join(',')]);
}
rows.sort((a, b) => (a[0] < b[0] ? -1 : 1));
const head = [
  '# Module lists of public pipelines, as their repositories name them (nf-core modules from modules.json,',
  '# the pipeline\'s own under local/), at the commit and date given. Written by scripts/pipeline-modules.mjs;',
  '# the graph check holds every pipeline credit in edges.tsv against these lists (node column "modules").',
  '#pipeline\tcommit\tdate\tmodules',
];
process.stdout.write(`${[...head, ...rows.map((r) => r.join('\t'))].join('\n')}\n`);
