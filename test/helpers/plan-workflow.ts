// Build Workflow values directly (no loader) for expansion, DAG and plan tests, plus a real-disk
// PlanFs over a temp directory.
import { mkdtempSync, mkdirSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ConfigEntry, ConfigValue, Pair, Rule, SampleGroup, Workflow } from '../../src/workflow/model.js';
import type { PlanFs } from '../../src/workflow/plan/types.js';

export type RuleInput = Partial<Omit<Rule, 'input' | 'output' | 'index'>> & {
  name: string;
  input?: string[] | Record<string, string>;
  output?: string[] | Record<string, string>;
};

function pathSet(v: string[] | Record<string, string> | undefined): Rule['input'] {
  if (v === undefined) return { paths: [], names: {} };
  if (Array.isArray(v)) return { paths: v, names: {} };
  const names: Record<string, number> = {};
  const paths = Object.entries(v).map(([k, p], i) => ((names[k] = i), p));
  return { paths, names };
}

export function makeRule(r: RuleInput, index = 0): Rule {
  const { input, output, ...rest } = r;
  return {
    index,
    resources: {},
    params: {},
    dependsOn: [],
    retries: 0,
    priority: 0,
    tags: [],
    expandInputs: [],
    tempOutput: [],
    protectedOutput: [],
    ...rest,
    input: pathSet(input),
    output: pathSet(output),
  };
}

export interface WorkflowInput {
  name?: string;
  dir?: string;
  rules: RuleInput[];
  config?: Record<string, ConfigValue>;
  declared?: Record<string, NonNullable<ConfigEntry['declaration']>>;
  sampleGroups?: SampleGroup[];
  pairs?: Pair[];
  samplePattern?: string;
  defaults?: Workflow['defaults'];
}

export function makeWorkflow(w: WorkflowInput): Workflow {
  const config = new Map<string, ConfigEntry>();
  for (const [key, value] of Object.entries(w.config ?? {})) config.set(key, { key, value });
  for (const [key, declaration] of Object.entries(w.declared ?? {})) config.set(key, { key, value: declaration.default, declaration });
  return {
    file: 'main.oxoflow',
    dir: w.dir ?? '/nonexistent-oxo-flow-test',
    pipelineDir: w.dir ?? '/nonexistent-oxo-flow-test',
    source: '',
    meta: { name: w.name ?? 'test', ...(w.samplePattern ? { samplePattern: w.samplePattern } : {}) },
    config,
    defaults: w.defaults ?? {},
    sampleGroups: w.sampleGroups ?? [],
    pairs: w.pairs ?? [],
    rules: w.rules.map((r, i) => makeRule(r, i)),
    positions: { locate: (p) => (p[0] === 'rules' && typeof p[1] === 'number' ? { line: 10 + p[1], column: 1 } : undefined) },
  };
}

/** A PlanFs with nothing on disk. */
export const emptyFs: PlanFs = { stat: () => undefined, list: () => undefined };

/** The real file system, as the CLI passes it. */
export const diskFs: PlanFs = {
  stat: (p) => {
    const s = statSync(p, { throwIfNoEntry: false });
    return s ? { mtimeMs: s.mtimeMs } : undefined;
  },
  list: (d) => {
    try {
      return readdirSync(d);
    } catch {
      return undefined;
    }
  },
};

export function tempDir(prefix = 'oxo-plan-'): string {
  return mkdtempSync(path.join(tmpdir(), prefix));
}

/** Write a file (creating folders) and set its mtime to `secondsAgo` in the past. */
export function touch(dir: string, rel: string, secondsAgo = 0): void {
  const full = path.join(dir, rel);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, 'x');
  const t = Date.now() / 1000 - secondsAgo;
  utimesSync(full, t, t);
}
