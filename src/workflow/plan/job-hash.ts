// What a job is, for "did it change since it ran": the real command (a hash, so secrets in it never
// reach the disk), its environment and its outputs. Params and config values are in the command.
// The plan compares it with the run state's record; the runner writes it into the record.
import { createHash } from 'node:crypto';
import type { JobSpec } from './types.js';

export function jobHash(job: Pick<JobSpec, 'command' | 'environment' | 'outputs'>): string {
  const env = job.environment === undefined ? null : [job.environment.kind, job.environment.spec];
  return createHash('sha256').update(JSON.stringify([job.command, env, job.outputs])).digest('hex').slice(0, 32);
}
