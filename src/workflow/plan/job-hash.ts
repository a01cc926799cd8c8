// What a job is, for "did it change since it ran": its script and the values it gets (a hash, so
// secrets never reach the disk), its environment and its outputs. Params and config values are in
// the values. The plan compares it with the run state's record; the runner writes it into the record.
// The values are taken with the rule's declared threads and memory (stateEnv), so a run capped to a
// smaller machine, or given --set-threads, is not a changed job, as in Snakemake.
import { createHash } from 'node:crypto';
import type { JobSpec } from './types.js';

export function jobHash(job: Pick<JobSpec, 'command' | 'environment' | 'outputs'> & { env?: Readonly<Record<string, string>>; stateEnv?: Readonly<Record<string, string>> }): string {
  const env = job.environment === undefined ? null : [job.environment.kind, job.environment.spec];
  const given = job.stateEnv ?? job.env;
  const values = given === undefined ? null : Object.entries(given).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return createHash('sha256').update(JSON.stringify([job.command, values, env, job.outputs])).digest('hex').slice(0, 32);
}
