#!/usr/bin/env node
// Maintainer's check: every command-line option a built-in skill names is one the tool knows.
// For each skill in scripts/skill-help-commands.tsv (skills whose tools install from Debian), the
// options in its code (`-x`, `--xyz`, in inline code and code blocks) are looked up in the help text
// of the listed commands; the script prints each miss and the share found, and exits 1 below --min.
// Usage: node scripts/check-skill-flags.mjs [--min 0.99] [--installed] [SKILL...]
// --installed skips (and names) the skills with a tool that is not on PATH here.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const args = process.argv.slice(2);
const minIndex = args.indexOf('--min');
const min = minIndex >= 0 ? Number(args.splice(minIndex, 2)[1]) : 0.99;
const installedIndex = args.indexOf('--installed');
const installedOnly = installedIndex >= 0 && args.splice(installedIndex, 1).length > 0;
const only = new Set(args);

const table = fs
  .readFileSync(path.join(root, 'scripts/skill-help-commands.tsv'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '' && !l.startsWith('#'))
  .map((l) => l.split('\t'))
  .filter(([skill]) => only.size === 0 || only.has(skill));

const helpCache = new Map();
const help = (command) => helpCache.get(command) ?? '';

/** Run every help command once, a few at a time (Java and Perl tools take seconds to print help). */
async function collectHelp(commands) {
  const queue = [...new Set(commands)];
  const runOne = (command) =>
    new Promise((resolve) => {
      const child = spawn('sh', ['-c', `${command} 2>&1`], { stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.stdout.on('data', (d) => {
        if (out.length < 32 << 20) out += d;
      });
      child.on('close', () => {
        clearTimeout(timer);
        helpCache.set(command, out);
        resolve();
      });
    });
  const workers = Array.from({ length: 4 }, async () => {
    while (queue.length > 0) await runOne(queue.shift());
  });
  await Promise.all(workers);
}

/** The sections whose code names the tool's options: the parameters and the typical command. */
function toolSections(text) {
  return [...text.matchAll(/^## (Parameters that matter|Typical command)\n([\s\S]*?)(?=^## |(?![\s\S]))/gm)].map((m) => m[2]).join('\n');
}

/** The command a help line belongs to: `samtools sort --help` → samtools, `script -qc 'bwa mem' …` → bwa. */
const toolOf = (command) => path.basename((/^script -qc '([^']+)'/.exec(command)?.[1] ?? command).trim().split(/\s+/)[0]);

/**
 * Options named in those sections' code (inline spans and fenced blocks), each attributed to the
 * command it follows: a code line is cut into commands at pipes, `&&`, `;` and `$(`, and only options
 * of the skill's own tools count (those of `mkdir -p`, `sort -k1,1`, `awk` or a neighbouring tool
 * without a help command here are not this tool's options). A span that starts with an option
 * (`--gcBias`) belongs to the skill's main tool.
 */
function optionsOf(text, tools) {
  const part = toolSections(text);
  const lines = [
    ...[...part.matchAll(/```[^\n]*\n([\s\S]*?)```/g)].flatMap((m) => m[1].replace(/\\\n/g, ' ').split('\n')),
    ...[...part.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]),
  ];
  const out = new Set();
  for (const line of lines) {
    for (const segment of line.split(/\|\||\||&&|;|\$\(|\)|<\(/)) {
      const words = segment.trim().split(/\s+/).filter((w) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(w));
      const first = words[0] ?? '';
      const own = first.startsWith('-') || tools.has(path.basename(first));
      if (!own) continue;
      for (const m of segment.matchAll(/(?:^|[\s(=,'"])(--?[A-Za-z][A-Za-z0-9_-]*)/g)) {
        let opt = m[1].replace(/[-_]+$/, '');
        // A value written onto a one-letter option (-G30, -k1,1) belongs to that option.
        opt = opt.replace(/^(-[A-Za-z])\d.*$/, '$1');
        // Help requests and Java virtual machine settings are not the tool's options.
        if (opt === '--help' || opt === '-h' || /^-X/.test(opt) || opt === '-jar') continue;
        out.add(opt);
      }
    }
  }
  return [...out];
}

const seen = new Map();
const onPath = (tool) => {
  if (!seen.has(tool)) seen.set(tool, spawnSync('sh', ['-c', `command -v '${tool}' || test -x '${tool}'`], { stdio: 'ignore' }).status === 0);
  return seen.get(tool);
};
// The program each help command runs. A skill counts as installed only when all of them are: the
// options of a missing second tool would otherwise read as options that do not exist.
const toolsOf = (commands) =>
  commands.filter((c) => !c.startsWith('doc:')).map((c) => (/^script -qc '([^']+)'/.exec(c)?.[1] ?? c).trim().split(/\s+/)[0]);
const installed = (commands) => toolsOf(commands).every(onPath);

let total = 0;
let found = 0;
let byDocumentation = 0;
const skipped = [];
const runnable = table.filter(([, ...commands]) => !installedOnly || installed(commands));
await collectHelp(runnable.flatMap(([, ...commands]) => commands.filter((c) => !c.startsWith('doc:'))));
for (const [skill, ...commands] of table) {
  if (installedOnly && !installed(commands)) {
    skipped.push(skill);
    continue;
  }
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
  const tools = new Set(commands.filter((c) => !c.startsWith('doc:')).map(toolOf));
  for (const opt of optionsOf(text, tools)) {
    total += 1;
    if (documented.has(opt)) {
      found += 1;
      byDocumentation += 1;
    } else if (known(opt)) found += 1;
    // Bundled one-letter flags (-rcl, -ax): each letter must be an option; or a value written onto
    // a one-letter option (-Oz, -Ou).
    else if (/^-[A-Za-z]{2,4}$/.test(opt) && ([...opt.slice(1)].every((c) => known(`-${c}`)) || known(opt.slice(0, 2)))) found += 1;
    else missing.push(opt);
  }
  if (missing.length > 0) console.log(`${skill}: not in the help of ${commands.join(' | ')}: ${missing.join(' ')}`);
}
const share = total === 0 ? 1 : found / total;
if (skipped.length > 0) console.log(`skipped (tool not installed): ${skipped.join(' ')}`);
console.log(`${found} of ${total} options found (${(share * 100).toFixed(1)}%; ${byDocumentation} of them checked another way, see doc: in the table) in ${table.length - skipped.length} skills`);
process.exitCode = share >= min ? 0 : 1;
