// What a run ran with: the workflow file's hash, the resolved config with sensitive values masked,
// sample sheet hashes, each rule's environment, and tool versions (a rule's `version_command`, and
// MultiQC-style versions.yml files). Data in, data out; the only I/O is reading files and running
// the declared version commands.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseOverrides } from '../../workflow/expand/overrides.js';
import type { Workflow } from '../../workflow/model.js';
import type { EnvironmentRecord, ToolVersion } from './types.js';

export const MASK = '***';

export function sha256File(file: string): string | null {
  try {
    return createHash('sha256').update(readFileSync(file)).digest('hex');
  } catch {
    return null;
  }
}

/** Config as the run used it (file values, then KEY=VALUE overrides); sensitive keys read `***`. */
export function maskedConfig(workflow: Workflow, overrides: readonly string[]): Record<string, unknown> {
  const given = parseOverrides(overrides, workflow.config).values;
  const out: Record<string, unknown> = {};
  for (const [key, entry] of workflow.config) {
    const value = given.has(key) ? given.get(key) : entry.value;
    out[key] = entry.declaration?.sensitive ? MASK : (value ?? null);
  }
  return out;
}

/** The command line as typed, with the values of sensitive KEY=VALUE overrides masked. */
export function maskedCommandLine(argv: readonly string[], workflow: Workflow, secrets: ReadonlySet<string>): string[] {
  return argv.map((a) => {
    const eq = a.indexOf('=');
    if (eq > 0) {
      const key = a.slice(0, eq).replace(/^config\./, '');
      if (workflow.config.get(key)?.declaration?.sensitive) return `${a.slice(0, eq)}=${MASK}`;
    }
    let shown = a;
    for (const s of secrets) if (s.length >= 4 && shown.includes(s)) shown = shown.split(s).join(MASK);
    return shown;
  });
}

export function sampleSheets(workflow: Workflow): { path: string; sha256: string | null }[] {
  const out: { path: string; sha256: string | null }[] = [];
  // The sheets as read (a path from {config.key} filled in), relative to the project directory.
  for (const p of workflow.sheets ?? []) out.push({ path: p, sha256: sha256File(path.resolve(workflow.dir, p)) });
  return out;
}

/** Each rule's environment (the rule's own, else [defaults]), with the file's hash when it names one. */
export function environments(workflow: Workflow): EnvironmentRecord[] {
  const out: EnvironmentRecord[] = [];
  for (const rule of workflow.rules) {
    const env = rule.environment ?? workflow.defaults.environment;
    if (env === undefined) continue;
    const rec: EnvironmentRecord = { rule: rule.name, kind: env.kind, spec: env.spec };
    const first = Array.isArray(env.spec) ? env.spec[0] : env.spec;
    if (first !== undefined && /\.(ya?ml|lock|toml)$/i.test(first)) {
      const digest = sha256File(path.resolve(workflow.pipelineDir, first));
      if (digest !== null) rec.fileSha256 = digest;
    }
    out.push(rec);
  }
  return out;
}

/**
 * Run each rule's `version_command` once, inside the rule's environment (launch gives the argv),
 * all at once and each bounded in time; the first non-empty line of its output is the version.
 */
export function toolVersions(
  rules: readonly { rule: string; command: string; argv: string[]; env?: Record<string, string> }[],
  options: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<ToolVersion[]> {
  return Promise.all(
    rules.map(
      (r) =>
        new Promise<ToolVersion>((resolve) => {
          execFile(
            r.argv[0]!,
            r.argv.slice(1),
            { cwd: options.cwd, env: r.env ? { ...options.env, ...r.env } : options.env, encoding: 'utf8', timeout: options.timeoutMs ?? 10_000, maxBuffer: 1024 * 1024 },
            (err, stdout, stderr) => {
              const line = `${stdout}\n${stderr}`.split('\n').map((l) => l.trim()).find((l) => l !== '');
              if (err === null && line !== undefined) resolve({ rule: r.rule, command: r.command, version: line.slice(0, 200) });
              else {
                const e = err as (Error & { code?: number | string; signal?: string; killed?: boolean }) | null;
                const why = e === null ? 'printed nothing' : e.killed ? 'ran past 10 s and was stopped' : typeof e.code === 'number' ? `exit ${e.code}` : e.signal ? `stopped by ${e.signal}` : e.message;
                resolve({ rule: r.rule, command: r.command, version: null, error: why });
              }
            },
          );
        }),
    ),
  );
}

/**
 * A MultiQC-style versions.yml: top-level keys (processes), each holding `tool: version` lines one
 * level deeper. Read by hand: the format is that small, and anything else is not one (undefined).
 */
export function readVersionsYml(file: string): Record<string, Record<string, string>> | undefined {
  let text: string;
  try {
    if (statSync(file).size > 1024 * 1024) return undefined;
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return parseVersionsYml(text);
}

export function parseVersionsYml(text: string): Record<string, Record<string, string>> | undefined {
  const out: Record<string, Record<string, string>> = {};
  let current: Record<string, string> | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.replace(/\s+#.*$/, '');
    if (line.trim() === '' || line.trimStart().startsWith('#') || line === '---') continue;
    const m = /^(\s*)("[^"]*"|'[^']*'|[^:]+):\s*(.*)$/.exec(line);
    if (m === null) return undefined;
    const key = unquote(m[2]!.trim());
    const value = unquote(m[3]!.trim());
    if (m[1] === '') {
      if (value !== '') return undefined;
      current = out[key] = {};
    } else {
      if (current === undefined || value === '') return undefined;
      current[key] = value;
    }
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

function unquote(s: string): string {
  return (s.startsWith('"') && s.endsWith('"')) || (s.startsWith("'") && s.endsWith("'")) ? s.slice(1, -1) : s;
}
