// Shared by the benchmark scripts: interleaved timing against `node -e 0`, peak RSS, the machine's
// description, and replacing one section of docs/benchmarks.md (each script owns one heading).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const CLI = path.join(ROOT, 'bin', 'oxo-flow.js');
const DOC = path.join(ROOT, 'docs', 'benchmarks.md');

export function requireBuild() {
  if (!existsSync(path.join(ROOT, 'dist', 'oxo-flow.cjs'))) {
    console.error('dist/ is missing: run `npm run build` first');
    process.exit(2);
  }
}

export function runsFromArgs(fallback) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--runs');
  return { runs: (at >= 0 && Number(args[at + 1])) || fallback, write: !args.includes('--no-write') };
}

export function timeOnce(cmd, argv, options = {}) {
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'], maxBuffer: 64 * 1024 * 1024, ...options });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0 && !options.allowFailure) throw new Error(`${cmd} ${argv.join(' ')} exited ${r.status}: ${(r.stderr ?? '').slice(0, 400)}`);
  return ms;
}

export function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * Median wall time of each command and of `node -e 0`, with the runs interleaved so that machine
 * load hits all of them alike. The first run of each warms the file cache and is not counted.
 */
export function measureInterleaved(commands, runs, options = {}) {
  const all = [{ label: 'node -e 0', cmd: process.execPath, argv: ['-e', '0'] }, ...commands];
  const times = all.map(() => []);
  all.forEach((c) => timeOnce(c.cmd, c.argv, { ...options, ...c.options }));
  for (let i = 0; i < runs; i++) all.forEach((c, j) => times[j].push(timeOnce(c.cmd, c.argv, { ...options, ...c.options })));
  const base = median(times[0]);
  return all.map((c, j) => ({ label: c.label, ms: median(times[j]), ratio: median(times[j]) / base }));
}

export function peakRssKb(cmd, argv, options = {}) {
  if (!existsSync('/usr/bin/time')) return undefined;
  const r = spawnSync('/usr/bin/time', ['-v', cmd, ...argv], { encoding: 'utf8', ...options });
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
  return m ? Number(m[1]) : undefined;
}

export function machineDescription() {
  return `${os.cpus()[0]?.model ?? 'unknown CPU'} × ${os.cpus().length}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
}

/** Replace the section that starts with `heading` (up to the next `## `), or append it. */
export function writeDocSection(heading, body) {
  let text = existsSync(DOC) ? readFileSync(DOC, 'utf8') : '# Benchmarks\n';
  const section = `${heading}\n\n${body.trim()}\n`;
  const start = text.indexOf(`\n${heading}\n`);
  if (start === -1) {
    text = `${text.replace(/\n*$/, '\n\n')}${section}`;
  } else {
    const next = text.indexOf('\n## ', start + heading.length + 1);
    text = `${text.slice(0, start + 1)}${section}${next === -1 ? '' : `\n${text.slice(next + 1)}`}`;
  }
  writeFileSync(DOC, text);
  console.error(`updated docs/benchmarks.md (${heading})`);
}

export const verdict = (ratio, budget) => `${ratio.toFixed(2)}× (budget ≤ ${budget}×: ${ratio <= budget ? 'met' : '**not met**'})`;
