// What a job is, for "did it change since it ran": the real command (a hash, so secrets in it never
// reach the disk), its environment and its outputs. Params and config values are in the command.
// The plan compares it with the run state's record; the runner writes it into the record.
import { createHash } from 'node:crypto';
import type { JobSpec } from './types.js';

// The command is taken with the rule's declared threads and memory (stateCommand), so a run capped to
// a smaller machine, or given --set-threads, is not a changed command, as in Snakemake.
export function jobHash(job: Pick<JobSpec, 'command' | 'environment' | 'outputs'> & { stateCommand?: string }): string {
  const env = job.environment === undefined ? null : [job.environment.kind, job.environment.spec];
  return createHash('sha256').update(JSON.stringify([job.stateCommand ?? job.command, env, job.outputs])).digest('hex').slice(0, 32);
}
