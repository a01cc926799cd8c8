// The executors' names, as `--executor` and a profile's `executor` take them. The drivers behind
// them are in index.ts, whose table must have exactly these keys (its type says so).
export const EXECUTOR_NAMES = ['local', 'slurm', 'sge'] as const;
export type ExecutorName = (typeof EXECUTOR_NAMES)[number];

export function isExecutorName(name: string): name is ExecutorName {
  return (EXECUTOR_NAMES as readonly string[]).includes(name);
}
