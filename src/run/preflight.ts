// Everything checked before the first job starts, so that a run never stops half-way on something
// that was knowable up front: every job fits the machine, every input exists or is made, every
// environment's program is installed, every time_limit reads, no protected output is overwritten.
import { statSync } from 'node:fs';
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { locate } from '../workflow/expand/dimensions.js';
import type { Workflow } from '../workflow/model.js';
import type { JobSpec, Plan } from '../workflow/plan/index.js';
import { JOB_JSON_VAR } from '../workflow/render/script-job.js';
import { backendFor, type Launch, type Preparation } from './environment.js';
import type { SchedJob } from './scheduler.js';
import { stateDir, type StateStore } from './state.js';

export interface PreparedJob extends SchedJob {
  spec: JobSpec;
  /** spec.shownCommand, worked out once (the plan computes it on each read; a run reads it three times). */
  readonly shownCommand: string;
  launch(command: string): Launch;
  retries: number;
  timeLimitSeconds?: number;
  logPath: string;
  /** A script rule's job file (JSON, next to the log; see render/script-job.ts), named by OXO_JOB_JSON. */
  jobJsonPath?: string;
  /** The key of the environment preparation (Preparation.key) the job needs, if any. */
  preparation?: string;
}

export interface PreflightOptions {
  cores: number;
  memoryMb: number;
  /** Local runs check cores and memory; a cluster has its own. */
  checkFit: boolean;
  env: Readonly<Record<string, string | undefined>>;
}

export interface Preflight {
  jobs: PreparedJob[];
  preparations: Preparation[];
  diagnostics: Diagnostic[];
}

export function preflight(plan: Plan, workflow: Workflow, store: StateStore, options: PreflightOptions): Preflight {
  const rules = new Map(workflow.rules.map((r) => [r.name, r]));
  const diagnostics: Diagnostic[] = [];
  const jobs: PreparedJob[] = [];
  const preparations = new Map<string, Preparation>();
  const reported = new Set<string>();
  const once = (key: string, d: () => Diagnostic) => {
    if (reported.has(key)) return;
    reported.add(key);
    diagnostics.push(d());
  };
  for (const spec of plan.jobs) {
    if (spec.status !== 'run') continue;
    const rule = rules.get(spec.rule);
    const where = (key?: string) => (rule ? { ...locate(workflow, rule, key), rule: spec.rule } : { file: workflow.file, rule: spec.rule });
    if (options.checkFit && spec.threads > options.cores) {
      once(`t:${spec.rule}`, () =>
        diagnostic('RUN001', `rule ${spec.rule} needs ${spec.threads} threads but the run has ${options.cores} cores, so ${spec.id} can never start`, where('threads')),
      );
    }
    if (options.checkFit && spec.memoryMb !== undefined && spec.memoryMb > options.memoryMb) {
      once(`m:${spec.rule}`, () =>
        diagnostic('RUN002', `rule ${spec.rule} needs ${spec.memory ?? `${spec.memoryMb}M`} of memory but the run has ${options.memoryMb}M, so ${spec.id} can never start`, where('memory')),
      );
    }
    for (const input of spec.missingInputs) {
      diagnostics.push(diagnostic('RUN003', `${spec.id} needs ${input}, which does not exist and which no job of this run makes`, where('input')));
    }
    for (const out of spec.protectedOutputs) {
      if (exists(path.resolve(workflow.dir, out))) {
        diagnostics.push(diagnostic('RUN007', `${spec.id} would overwrite ${out}, a protected output that already exists`, where('output')));
      }
    }
    const backend = backendFor(spec.environment, { project: workflow.dir, pipeline: workflow.pipelineDir }, stateDir(workflow.dir), options.env.PATH, options.env);
    if (!backend.ok) {
      once(`e:${spec.rule}`, () => diagnostic('RUN004', `rule ${spec.rule} cannot run: ${backend.why}`, where('environment')));
      continue;
    }
    if (backend.backend.prepare) preparations.set(backend.backend.prepare.key, backend.backend.prepare);
    const { backend: b, bin } = backend;
    let shown: string | undefined;
    const job: PreparedJob = {
      id: spec.id,
      dependsOn: spec.dependsOn,
      threads: spec.threads,
      spec,
      get shownCommand() {
        shown ??= spec.shownCommand;
        return shown;
      },
      // A container gets the job's variables by name: the job file's too, for a script rule.
      launch: (command) => b.launch(command, bin, spec.jobJson === undefined ? Object.keys(spec.env) : [...Object.keys(spec.env), JOB_JSON_VAR]),
      retries: spec.retries,
      logPath: store.logPath(spec.id),
    };
    if (spec.jobJson !== undefined) job.jobJsonPath = job.logPath.replace(/\.log$/, '') + '.json';
    if (spec.memoryMb !== undefined) job.memoryMb = spec.memoryMb;
    if (b.prepare) job.preparation = b.prepare.key;
    if (spec.timeLimitSeconds !== undefined) job.timeLimitSeconds = spec.timeLimitSeconds;
    jobs.push(job);
  }
  return { jobs, preparations: [...preparations.values()], diagnostics };
}

function exists(p: string): boolean {
  return statSync(p, { throwIfNoEntry: false }) !== undefined;
}
