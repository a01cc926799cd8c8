// The executors, by the name `--executor` takes. Adding a scheduler is a driver (like slurm.ts) and a
// line here, its name in names.ts (and its settings in PROFILE_KEYS, src/run/profile.ts).
import { clusterExecutor } from './cluster.js';
import { localExecutor } from './local.js';
import { sgeDriver } from './sge.js';
import { slurmDriver } from './slurm.js';
import type { ExecutorName } from './names.js';
import type { ExecutorFactory } from './types.js';

export { EXECUTOR_NAMES, isExecutorName, type ExecutorName } from './names.js';

export const EXECUTORS: Readonly<Record<ExecutorName, ExecutorFactory>> = {
  local: localExecutor,
  slurm: (ctx) => clusterExecutor(slurmDriver, ctx),
  sge: (ctx) => clusterExecutor(sgeDriver, ctx),
};

/** The code a failed job of this executor reports (a failed command locally, a failed cluster job). */
export const FAILED_CODE: Readonly<Record<ExecutorName, string>> = { local: 'RUN020', slurm: 'RUN032', sge: 'RUN034' };
/** The code for "this executor cannot run here". */
export const UNAVAILABLE_CODE: Readonly<Record<ExecutorName, string>> = { local: 'RUN030', slurm: 'RUN030', sge: 'RUN033' };
