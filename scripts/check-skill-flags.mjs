#!/usr/bin/env node
// Maintainer's check: every command-line option a built-in skill names is one the tool knows.
// For each skill in scripts/skill-help-commands.tsv (skills whose tools install from Debian), the
// options in its code (`-x`, `--xyz`, in inline code and code blocks) are looked up in the help text
// of the listed commands; the script prints each miss and the share found, and exits 1 below --min.
// Usage: node scripts/check-skill-flags.mjs [--min 0.99] [SKILL...]
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const minIndex = args.indexOf('--min');
const min = minIndex >= 0 ? Number(args.splice(minIndex, 2)[1]) : 0.99;
const only = new Set(args);

const table = fs
  .readFileSync(path.join(root, 'scripts/skill-help-commands.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.startsWith('#'))
  .map((l) => l.split('\t'))
  .filter(([skill]) => only.size === 0 || only.has(skill));

const helpCache = new Map();
function help(command) {
  if (!helpCache.has(command)) {
    const r = spawnSync('sh', ['-c', `${command} 2>&1`], { encoding: 'utf8', timeout: 60_000, maxBuffer: 32 << 20 });
    helpCache.set(command, `${r.stdout ?? ''}`);
  }
  return helpCache.get(command);
}

/** The sections whose code names the tool's options: the parameters and the typical command. */
function toolSections(text) {
  return [...text.matchAll(/^## (Parameters that matter|Typical command)\n([\s\S]*?)(?=^## |(?![\s\S]))/gm)].map((m) => m[2]).join('\n');
}

/** Options named in those sections' code: inline code spans and fenced blocks. */
function optionsOf(text) {
  const part = toolSections(text);
  const code = [...part.matchAll(/```[^\n]*\n([\s\S]*?)```/g)].map((m) => m[1]).join('\n') + '\n' + [...part.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]).join('\n');
  const out = new Set();
  for (const m of code.matchAll(/(?:^|[\s(=,'"])(--?[A-Za-z][A-Za-z0-9_-]*)/g)) {
    let opt = m[1].replace(/[-_]+$/, '');
    // A value written onto a one-letter option (-G30, -k1,1) belongs to that option.
    opt = opt.replace(/^(-[A-Za-z])\d.*$/, '$1');
    // Help requests and Java virtual machine settings are not the tool's options.
    if (opt === '--help' || opt === '-h' || /^-X/.test(opt) || opt === '-jar') continue;
    out.add(opt);
  }
  return [...out];
}

let total = 0;
let found = 0;
let byDocumentation = 0;
for (const [skill, ...commands] of table) {
  const file = path.join(root, 'skills-builtin', skill, 'SKILL.md');
  const text = fs.readFileSync(file, 'utf8');
  // `doc:-a -b` lists options confirmed in the documentation of a tool Debian does not ship that the
  // skill's commands also use (they are counted, and reported, as checked by documentation).
  const documented = new Set(commands.filter((c) => c.startsWith('doc:')).flatMap((c) => c.slice(4).trim().split(/\s+/)));
  const helpText = commands.filter((c) => !c.startsWith('doc:')).map(help).join('\n');
  if (helpText.trim() === '') {
    console.log(`${skill}: no help text from ${commands.join(' | ')} (is the tool installed?)`);
    continue;
  }
  const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const missing = [];
  const known = (opt) =>
    new RegExp(`(^|[^A-Za-z0-9_-])${esc(opt)}([^A-Za-z0-9_]|$)`, 'm').test(helpText) ||
    // STAR and some others list parameters without their dashes, one per line.
    new RegExp(`^\\s*${esc(opt.replace(/^--?/, ''))}\\s`, 'm').test(helpText);
  for (const opt of optionsOf(text)) {
    total += 1;
    if (documented.has(opt)) {
      found += 1;
      byDocumentation += 1;
    } else if (known(opt)) found += 1;
    // Bundled one-letter flags (-rcl, -ax): each letter must be an option.
    else if (/^-[A-Za-z]{2,4}$/.test(opt) && [...opt.slice(1)].every((c) => known(`-${c}`))) found += 1;
    else missing.push(opt);
  }
  if (missing.length > 0) console.log(`${skill}: not in the help of ${commands.join(' | ')}: ${missing.join(' ')}`);
}
const share = total === 0 ? 1 : found / total;
console.log(`${found} of ${total} options found (${(share * 100).toFixed(1)}%; ${byDocumentation} of them by documentation of a tool Debian does not ship)`);
process.exitCode = share >= min ? 0 : 1;
