// Durations as schedulers take them (time_limit itself is parsed by the loader: src/workflow/load/time-limit.ts).

/** Slurm's `--time` form, whole minutes rounded up (Slurm's own unit). */
export function slurmTime(seconds: number): string {
  return String(Math.max(1, Math.ceil(seconds / 60)));
}
