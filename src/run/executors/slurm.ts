// Slurm: sbatch, squeue, scancel (and sacct for the final word on a job that left no exit status).
import { spawnSync } from 'node:child_process';
import { userInfo } from 'node:os';
import { slurmTime } from '../duration.js';
import type { ClusterDriver } from './cluster.js';

const ACTIVE = new Set(['PENDING', 'CONFIGURING', 'RUNNING', 'COMPLETING', 'REQUEUED', 'RESIZING', 'SUSPENDED', 'STAGE_OUT', 'SIGNALING', 'REQUEUE_HOLD', 'REQUEUE_FED', 'RESV_DEL_HOLD', 'STOPPED']);

/** `%` starts a file-name pattern in --output (%j, %x…): `%%` is a literal one. */
export function slurmPath(p: string): string {
  return p.replace(/%/g, '%%');
}

export const slurmDriver: ClusterDriver = {
  name: 'slurm',
  label: 'Slurm',
  codes: { unavailable: 'RUN030', failed: 'RUN032' },
  available(env) {
    const r = spawnSync('sinfo', ['-h', '-o', '%P'], { env, encoding: 'utf8', timeout: 20_000 });
    if (r.error !== undefined) return { ok: false, why: `\`sinfo\` cannot be started (${r.error.message})` };
    if (r.status !== 0) return { ok: false, why: `\`sinfo\` failed: ${r.stderr.trim().split('\n')[0] ?? ''}` };
    for (const p of ['sbatch', 'squeue', 'scancel']) {
      const v = spawnSync(p, ['--version'], { env, encoding: 'utf8' });
      if (v.error !== undefined) return { ok: false, why: `\`${p}\` is not on PATH` };
    }
    return { ok: true };
  },
  checkName(name) {
    return name.length > 1000 ? 'longer than 1000 characters' : undefined;
  },
  submit(req) {
    const o = req.options;
    const args = ['--parsable', `--job-name=${req.name}`, `--output=${slurmPath(req.logPath)}`, '--open-mode=append', `--cpus-per-task=${req.threads}`];
    if (req.memoryMb !== undefined) args.push(`--mem=${req.memoryMb}M`);
    if (req.timeLimitSeconds !== undefined) args.push(`--time=${slurmTime(req.timeLimitSeconds)}`);
    if (req.gpu !== undefined) args.push(`--gres=gpu:${req.gpu}`);
    for (const k of ['partition', 'account', 'qos', 'constraint'] as const) if (typeof o[k] === 'string') args.push(`--${k}=${o[k]}`);
    if (Array.isArray(o.sbatch_args)) args.push(...o.sbatch_args);
    // No --chdir: sbatch starts the job where it was called (a `%` in --chdir would be a pattern too).
    const r = spawnSync('sbatch', args, { input: req.script, cwd: req.cwd, env: req.env, encoding: 'utf8', timeout: 120_000 });
    if (r.status !== 0) return { ok: false, message: (r.stderr || r.error?.message || `exit ${r.status}`).trim().split('\n').slice(-3).join(' ') };
    const id = r.stdout.trim().split(';')[0]!;
    return /^\d+$/.test(id) ? { ok: true, id } : { ok: false, message: `unexpected sbatch answer: ${r.stdout.trim()}` };
  },
  queue(env) {
    const r = spawnSync('squeue', ['-h', '-u', userInfo().username, '-o', '%i|%T'], { env, encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) return undefined;
    const out = new Map<string, string>();
    for (const line of r.stdout.split('\n')) {
      const [id, state] = line.trim().split('|');
      if (id && state && ACTIVE.has(state)) out.set(id, state);
    }
    return out;
  },
  stuck: () => false,
  cancel(ids, env) {
    if (ids.length > 0) spawnSync('scancel', [...ids], { env, timeout: 60_000 });
  },
  finalState(id, env) {
    // sacct, then sacct -c (no accounting database: the job completion file).
    for (const extra of [[], ['-c']]) {
      const r = spawnSync('sacct', [...extra, '-n', '-P', '-X', '-j', id, '-o', 'jobid,state'], { env, encoding: 'utf8', timeout: 60_000 });
      if (r.status !== 0) continue;
      for (const line of r.stdout.split('\n')) {
        const [jid, state] = line.trim().split('|');
        if (jid === id && state) return state.split(' ')[0];
      }
    }
    return undefined;
  },
};
