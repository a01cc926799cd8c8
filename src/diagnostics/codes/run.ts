import type { CodeInfo } from '../code-info.js';

const doc = 'docs/run.md';

/** `oxo-flow run`: problems found before anything starts (RUN001–RUN019), while jobs run (RUN020–RUN029), clusters (RUN030–RUN039), locking, recording and profiles (RUN040–). */
export const runCodes = {
  RUN001: { severity: 'error', title: 'a job needs more threads than the run has cores', hint: 'lower the rule\'s `threads`, or give the run more with `--cores N`', doc },
  RUN002: { severity: 'error', title: 'a job needs more memory than the run has', hint: 'lower the rule\'s `memory`, or give the run more with `--memory SIZE`', doc },
  RUN003: { severity: 'error', title: 'an input does not exist and no job makes it', hint: 'create the file, fix the path, or add a rule whose output it is', doc },
  RUN004: { severity: 'error', title: 'the program behind a rule\'s environment is not installed', hint: 'install it, put it on PATH, or change the rule\'s [rules.environment]', doc },
  RUN006: { severity: 'error', title: '--forcerun names no rule of the workflow', doc },
  RUN007: { severity: 'error', title: 'a job would overwrite a protected output', hint: 'move or delete the protected file yourself if it really must be remade', doc },
  RUN008: { severity: 'error', title: 'bad value for -j, --cores or --memory', hint: 'use a positive whole number for -j and --cores, and a size like "8G" or "512M" for --memory', doc },
  RUN009: { severity: 'error', title: 'the run state cannot be written', hint: 'check that the project directory (the current one, or -d DIR) is writable: the state lives in .oxo-flow/ there', doc },
  RUN020: { severity: 'error', title: 'a job failed', hint: 'read the end of its log (shown below); fix the cause and run again: finished jobs are not rerun', doc },
  RUN021: { severity: 'error', title: 'a job succeeded but did not write a declared output', hint: 'make the command write every path in `output`, or remove the path from `output`', doc },
  RUN022: { severity: 'error', title: 'a job ran past its time_limit and was stopped', hint: 'raise the rule\'s `resources.time_limit`, or make the job faster', doc },
  RUN023: { severity: 'warning', title: 'jobs were not run because a job they need failed', doc },
  RUN024: { severity: 'error', title: 'the run was interrupted', hint: 'run the same command again to resume: finished jobs are not rerun', doc },
  RUN030: { severity: 'error', title: 'Slurm is not available', hint: 'install the Slurm client (sbatch, squeue, scancel) and check that `sinfo` answers, or run with the local executor', doc },
  RUN032: { severity: 'error', title: 'a Slurm job failed or was cancelled', hint: 'read the end of its log (shown below); fix the cause and run again', doc },
  RUN015: { severity: 'info', title: 'a rule\'s threads were capped to the run\'s cores', hint: 'give the run more with `--cores N`, or set the rule\'s threads with `--set-threads RULE=N`', doc },
  RUN016: { severity: 'info', title: 'a rule\'s memory was capped to the run\'s memory', hint: 'set `resources.memory_hard = true` on a rule that cannot do with less; then the run refuses it instead (RUN002)', doc },
  RUN017: { severity: 'info', title: 'a rule runs without its environment (`--env auto`)', hint: 'install the environment\'s program to use it, or provide the tools on PATH', doc },
  RUN018: { severity: 'error', title: 'bad value for --env, --set-threads or --set-resources', hint: 'write --env declared|auto|none, --set-threads RULE=N, --set-resources RULE:mem=8G (or mem_mb=8192, time_limit=2h)', exit: 'usage', doc },
  RUN019: { severity: 'error', title: '--touch could not mark an output up to date (missing, or its times cannot be set)', hint: 'a missing output cannot be marked up to date: run the job (or create the file yourself)', doc },
  RUN033: { severity: 'error', title: 'Grid Engine is not available', hint: 'install the Grid Engine client (qsub, qstat, qdel) and check that `qstat` answers (SGE_ROOT, SGE_CELL), or run with the local executor', doc },
  RUN034: { severity: 'error', title: 'a cluster job failed, was cancelled or left no exit status', hint: 'read the end of its log (shown below) and the scheduler\'s own record of the job; fix the cause and run again', doc },
  RUN040: { severity: 'error', title: 'another run holds the project lock', hint: 'wait for that run to end; if it is gone and its lock stayed behind, run `oxo-flow unlock`', doc },
  RUN041: { severity: 'warning', title: 'a lock left by a run that is gone was taken over', doc },
  RUN042: { severity: 'error', title: 'a job could not be prepared, started or recorded', hint: 'read the reason: free disk space, make .oxo-flow/ writable, shorten the command or the file name; then run again', doc },
  RUN043: { severity: 'warning', title: 'a job\'s state record cannot be read, so the job runs again', doc },
  RUN044: { severity: 'warning', title: 'a process group named by a leftover record was not signalled: it cannot be proven to be this project\'s job', hint: 'if it is a stale job of this project, stop it yourself (`kill -TERM -PGID`)', doc },
  RUN045: { severity: 'error', title: 'the executor profile is not valid', hint: 'fix the setting named; docs/run.md lists what a profile may hold', doc, exit: 'usage' },
  RUN046: { severity: 'error', title: 'the scheduler would refuse a job', hint: 'nothing was submitted; fix the job named and run again', doc },
  RUN047: { severity: 'error', title: 'an environment could not be created', hint: 'read the error of the environment tool; fix the environment file and run again', doc },
  RUN048: { severity: 'error', title: 'unlock refused: the run holding the lock is still running', hint: 'stop that run first (Ctrl-C, or kill its pid), or pass --force if you are sure it is not running', doc },
  RUN049: { severity: 'error', title: 'bad value for a run flag', hint: 'see `oxo-flow run --help`', doc, exit: 'usage' },
} as const satisfies Record<string, CodeInfo>;
