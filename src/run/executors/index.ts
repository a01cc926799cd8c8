// The executors, by the name `--executor` takes. Adding a scheduler is a driver (like slurm.ts) and a
// line here (and its settings in PROFILE_KEYS, src/run/profile.ts).
import { clusterExecutor } from './cluster.js';
import { localExecutor } from './local.js';
import { sgeDriver } from './sge.js';
import { slurmDriver } from './slurm.js';
import type { ExecutorFactory } from './types.js';

export const EXECUTORS: Readonly<Record<string, ExecutorFactory>> = {
  local: localExecutor,
  slurm: (ctx) => clusterExecutor(slurmDriver, ctx),
  sge: (ctx) => clusterExecutor(sgeDriver, ctx),
};

export const EXECUTOR_NAMES = Object.keys(EXECUTORS);

/** The code a failed job of this executor reports (a failed command locally, a failed cluster job). */
export const FAILED_CODE: Readonly<Record<string, string>> = { local: 'RUN020', slurm: 'RUN032', sge: 'RUN034' };
/** The code for "this executor cannot run here". */
export const UNAVAILABLE_CODE: Readonly<Record<string, string>> = { local: 'RUN030', slurm: 'RUN030', sge: 'RUN033' };
