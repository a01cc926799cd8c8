// The executor profile: a site's settings for `run` in one TOML file, `.oxo-flow/profile.toml` in the
// project or `--profile FILE`. Flags on the command line win over it.
//
//   executor = "slurm"          # default executor
//   jobs = 50                   # default -j
//   poll_interval = "60s"       # how often squeue / qstat is asked
//   lock_timeout = "12h"        # take over a lock from another host after this long
//   [slurm]                     # every job: partition, account, qos, constraint, sbatch_args
//   partition = "short"
//   [slurm.rules.align]         # one rule: the same keys, over the section's
//   partition = "long"
//   [sge]                       # queue, pe, project, qsub_args
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'smol-toml';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { parseTimeLimit } from '../workflow/load/time-limit.js';
import { EXECUTOR_NAMES, type ExecutorName, isExecutorName } from './executors/names.js';
import { stateDir } from './state.js';

/** The keys each scheduler section takes: string values, and `*_args` lists of extra arguments. */
export const PROFILE_KEYS: Readonly<Record<string, readonly string[]>> = {
  slurm: ['partition', 'account', 'qos', 'constraint', 'sbatch_args'],
  sge: ['queue', 'pe', 'project', 'qsub_args'],
};

const TOP_KEYS = ['executor', 'jobs', 'poll_interval', 'lock_timeout', ...Object.keys(PROFILE_KEYS)];

export type SectionOptions = Record<string, string | string[]>;

export interface ExecutorProfile {
  /** The file it came from, when there was one. */
  file?: string;
  executor?: ExecutorName;
  jobs?: number;
  pollMs?: number;
  lockTimeoutMs?: number;
  /** The options of a section for one rule: the rule's table over the section's. */
  options(section: string, rule: string): SectionOptions;
}

export const EMPTY_PROFILE: ExecutorProfile = { options: () => ({}) };

export function defaultProfilePath(workflowDir: string): string {
  return path.join(stateDir(workflowDir), 'profile.toml');
}

/**
 * Read the profile: `explicit` (--profile, must exist) or the project's default (optional). Overrides
 * from the command line (--partition, --account) are applied to the Slurm section.
 */
export function loadProfile(workflowDir: string, explicit: string | undefined, cwd: string): { profile: ExecutorProfile; diagnostics: Diagnostic[] } {
  const file = explicit !== undefined ? path.resolve(cwd, explicit) : defaultProfilePath(workflowDir);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (explicit === undefined && (err as NodeJS.ErrnoException).code === 'ENOENT') return { profile: EMPTY_PROFILE, diagnostics: [] };
    return { profile: EMPTY_PROFILE, diagnostics: [diagnostic('RUN045', `profile ${explicit ?? file} cannot be read: ${(err as Error).message}`, { file })] };
  }
  let doc: Record<string, unknown>;
  try {
    doc = parse(text) as Record<string, unknown>;
  } catch (err) {
    const e = err as { message: string; line?: number; column?: number };
    return { profile: EMPTY_PROFILE, diagnostics: [diagnostic('RUN045', `profile is not valid TOML: ${e.message.split('\n')[0]}`, { file, ...(e.line ? { line: e.line } : {}), ...(e.column ? { column: e.column } : {}) })] };
  }
  const diagnostics: Diagnostic[] = [];
  const at = (key: string) => ({ file, ...locateKey(text, key) });
  const bad = (key: string, why: string) => diagnostics.push(diagnostic('RUN045', `profile: ${key} ${why}`, at(key.split('.').pop()!)));
  const profile: ExecutorProfile = { file, options: () => ({}) };
  for (const [k, v] of Object.entries(doc)) {
    if (!TOP_KEYS.includes(k)) {
      bad(k, `is not a profile setting (settings: ${TOP_KEYS.join(', ')})`);
      continue;
    }
    if (k === 'executor') {
      if (typeof v === 'string' && isExecutorName(v)) profile.executor = v;
      else bad(k, `must be one of ${EXECUTOR_NAMES.join(', ')}`);
    } else if (k === 'jobs') {
      if (typeof v === 'number' && Number.isSafeInteger(v) && v > 0) profile.jobs = v;
      else bad(k, 'must be a positive whole number');
    } else if (k === 'poll_interval' || k === 'lock_timeout') {
      const d = typeof v === 'string' ? parseTimeLimit(v) : undefined;
      if (d?.ok) {
        if (k === 'poll_interval') profile.pollMs = d.seconds * 1000;
        else profile.lockTimeoutMs = d.seconds * 1000;
      } else bad(k, `must be a duration such as "60s", "5m" or "12h"${d && !d.ok ? ` (${d.message})` : ''}`);
    }
  }
  const sections = new Map<string, { all: SectionOptions; rules: Map<string, SectionOptions> }>();
  for (const [name, keys] of Object.entries(PROFILE_KEYS)) {
    const raw = doc[name];
    if (raw === undefined) continue;
    if (!isTable(raw)) {
      bad(name, 'must be a table');
      continue;
    }
    const read = (table: Record<string, unknown>, where: string): SectionOptions => {
      const out: SectionOptions = {};
      for (const [k, v] of Object.entries(table)) {
        if (k === 'rules' && where === name) continue;
        if (!keys.includes(k)) {
          bad(`${where}.${k}`, `is not a ${name} setting (settings: ${keys.join(', ')}, and [${name}.rules.RULE] tables)`);
          continue;
        }
        if (k.endsWith('_args')) {
          if (Array.isArray(v) && v.every((x) => typeof x === 'string')) out[k] = v as string[];
          else bad(`${where}.${k}`, 'must be a list of strings, one argument each');
        } else if (typeof v === 'string' && v !== '') out[k] = v;
        else bad(`${where}.${k}`, 'must be a non-empty string');
      }
      return out;
    };
    const rules = new Map<string, SectionOptions>();
    if (raw.rules !== undefined) {
      if (!isTable(raw.rules)) bad(`${name}.rules`, 'must be a table of rule tables');
      else for (const [rule, t] of Object.entries(raw.rules)) {
        if (isTable(t)) rules.set(rule, read(t, `${name}.rules.${rule}`));
        else bad(`${name}.rules.${rule}`, 'must be a table');
      }
    }
    sections.set(name, { all: read(raw, name), rules });
  }
  profile.options = (section, rule) => {
    const s = sections.get(section);
    return s === undefined ? {} : { ...s.all, ...(s.rules.get(rule) ?? {}) };
  };
  return { profile, diagnostics };
}

/** Command-line values over a profile's section (e.g. --partition over [slurm] partition). */
export function withOverrides(profile: ExecutorProfile, section: string, overrides: SectionOptions): ExecutorProfile {
  if (Object.keys(overrides).length === 0) return profile;
  return { ...profile, options: (s, rule) => (s === section ? { ...profile.options(s, rule), ...overrides } : profile.options(s, rule)) };
}

function isTable(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Date);
}

/** Line and column of the first `key =` or `[...key]` in the text (TOML parsers give values, not places). */
function locateKey(text: string, key: string): { line?: number; column?: number } {
  const lines = text.split('\n');
  const esc = key.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const re = new RegExp(`^(\\s*)(${esc}\\s*=|\\[[^\\]]*\\b${esc}\\])`);
  for (let i = 0; i < lines.length; i++) {
    const m = re.exec(lines[i]!);
    if (m) return { line: i + 1, column: m[1]!.length + 1 };
  }
  return {};
}
