// The run state: one small JSON file per job under <workflow dir>/.oxo-flow/state/jobs/, each written
// atomically (a temporary file, then a rename), so a runner killed at any instant leaves every
// record either in its old or its new form, never half-written. A record says what ran (a hash of
// the command), and whether it finished: a `running` record left behind means the runner died while
// the job ran, so its outputs are not to be trusted.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { JobSpec } from '../workflow/plan/index.js';
import { jobHash } from '../workflow/plan/job-hash.js';

export type RecordStatus = 'running' | 'done' | 'failed';

export interface JobRecord {
  version: 1;
  id: string;
  rule: string;
  /** jobHash() of the job as it ran. */
  hash: string;
  status: RecordStatus;
  startedAt: string;
  endedAt?: string;
  /** Outputs that existed before this job started: never deleted by the runner. */
  preexisting: string[];
  /** Process group of a local job, while it runs. */
  pgid?: number;
  /** Slurm job id of a submitted job. */
  slurmJobId?: string;
  executor: 'local' | 'slurm';
  log: string;
}

/** The record a job gets as it starts, before its process exists: a crash from here on reads as unfinished. */
export function startRecord(spec: JobSpec, executor: JobRecord['executor'], preexisting: string[], log: string, started = Date.now()): JobRecord {
  return { version: 1, id: spec.id, rule: spec.rule, hash: jobHash(spec), status: 'running', startedAt: new Date(started).toISOString(), preexisting, executor, log };
}

/** Where a workflow keeps its run state and logs. */
export function stateDir(workflowDir: string): string {
  return path.join(workflowDir, '.oxo-flow');
}

/** The hash a record carries; defined by the plan, which compares it. */
export { jobHash } from '../workflow/plan/job-hash.js';

export class StateStore {
  readonly jobsDir: string;
  readonly logsDir: string;
  #records: Map<string, JobRecord> | undefined;

  constructor(readonly workflowDir: string) {
    this.jobsDir = path.join(stateDir(workflowDir), 'state', 'jobs');
    this.logsDir = path.join(stateDir(workflowDir), 'logs');
  }

  /** Every record on disk, by job id (read once; later writes keep the map current). */
  records(): Map<string, JobRecord> {
    if (this.#records !== undefined) return this.#records;
    const out = new Map<string, JobRecord>();
    let names: string[] = [];
    try {
      names = readdirSync(this.jobsDir);
    } catch {
      names = [];
    }
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      try {
        const r = JSON.parse(readFileSync(path.join(this.jobsDir, name), 'utf8')) as JobRecord;
        if (r && r.version === 1 && typeof r.id === 'string') out.set(r.id, r);
      } catch {
        // A record that cannot be read counts as absent: the job's outputs and times decide alone.
      }
    }
    this.#records = out;
    return out;
  }

  /** Atomically replace a job's record. Throws when the state directory cannot be written. */
  write(record: JobRecord): void {
    const file = path.join(this.jobsDir, fileName(record.id));
    const temp = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(temp, JSON.stringify(record));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      mkdirSync(this.jobsDir, { recursive: true });
      writeFileSync(temp, JSON.stringify(record));
    }
    renameSync(temp, file);
    this.records().set(record.id, record);
  }

  /** The per-job log file of the runner (the job's stdout and stderr). */
  logPath(jobId: string): string {
    return path.join(this.logsDir, `${jobId.replace(/[^A-Za-z0-9_.=,-]+/g, '_')}.log`);
  }
}

/** Job ids hold brackets, `=` and sample names: a hash keeps file names short and safe. */
function fileName(jobId: string): string {
  return `${createHash('sha256').update(jobId).digest('hex').slice(0, 32)}.json`;
}
