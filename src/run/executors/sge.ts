// Grid Engine (SGE, UGE, OGE, Son of Grid Engine): qsub, qstat, qdel (and qacct for the final word).
import { spawnSync } from 'node:child_process';
import { userInfo } from 'node:os';
import type { ClusterDriver } from './cluster.js';

export const sgeDriver: ClusterDriver = {
  name: 'sge',
  label: 'Grid Engine',
  codes: { unavailable: 'RUN033', failed: 'RUN034' },
  available(env) {
    for (const p of ['qsub', 'qstat', 'qdel']) {
      const v = spawnSync(p, ['-help'], { env, encoding: 'utf8', timeout: 20_000 });
      if (v.error !== undefined) return { ok: false, why: `\`${p}\` is not on PATH` };
    }
    const r = spawnSync('qstat', ['-u', userInfo().username], { env, encoding: 'utf8', timeout: 20_000 });
    if (r.status !== 0) return { ok: false, why: `\`qstat\` failed: ${(r.stderr || r.stdout).trim().split('\n')[0] ?? ''} (are SGE_ROOT and SGE_CELL set?)` };
    return { ok: true };
  },
  checkName(name) {
    // qsub -N: no white space nor / : @ \ * ?, and not starting with a digit.
    if (/[\s/:@\\*?]/.test(name) || /^\d/.test(name)) return 'it holds a character Grid Engine refuses in job names';
    return name.length > 200 ? 'longer than 200 characters' : undefined;
  },
  submit(req) {
    const o = req.options;
    // -V: the job gets the submitting environment (PATH, the tools' variables), as Slurm's default does.
    const args = ['-terse', '-cwd', '-V', '-S', '/bin/sh', '-N', req.name, '-o', req.logRel, '-j', 'y'];
    if (req.threads > 1) args.push('-pe', typeof o.pe === 'string' ? o.pe : 'smp', String(req.threads));
    if (req.timeLimitSeconds !== undefined) args.push('-l', `h_rt=${req.timeLimitSeconds}`);
    if (req.gpu !== undefined) args.push('-l', `gpu=${req.gpu}`);
    if (typeof o.queue === 'string') args.push('-q', o.queue);
    if (typeof o.project === 'string') args.push('-P', o.project);
    if (Array.isArray(o.qsub_args)) args.push(...o.qsub_args);
    const r = spawnSync('qsub', args, { input: req.script, cwd: req.cwd, env: req.env, encoding: 'utf8', timeout: 120_000 });
    if (r.status !== 0) return { ok: false, message: (r.stderr || r.stdout || r.error?.message || `exit ${r.status}`).trim().split('\n').slice(-3).join(' ') };
    const id = r.stdout.trim().split('\n').pop()!.split('.')[0]!;
    return /^\d+$/.test(id) ? { ok: true, id } : { ok: false, message: `unexpected qsub answer: ${r.stdout.trim()}` };
  },
  queue(env) {
    const r = spawnSync('qstat', ['-u', userInfo().username], { env, encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) return undefined;
    const out = new Map<string, string>();
    // job-ID prior name user state submit/start-at queue slots ja-task-ID
    for (const line of r.stdout.split('\n')) {
      const cols = line.trim().split(/\s+/);
      if (cols.length >= 5 && /^\d+$/.test(cols[0]!)) out.set(cols[0]!, cols[4]!);
    }
    return out;
  },
  // An error state (Eqw) never ends by itself.
  stuck: (state) => state.includes('E'),
  cancel(ids, env) {
    if (ids.length > 0) spawnSync('qdel', [...ids], { env, encoding: 'utf8', timeout: 60_000 });
  },
  finalState(id, env) {
    const r = spawnSync('qacct', ['-j', id], { env, encoding: 'utf8', timeout: 60_000 });
    if (r.status !== 0) return undefined;
    const get = (k: string) => new RegExp(`^${k}\\s+(.*)$`, 'm').exec(r.stdout)?.[1]?.trim();
    const failed = get('failed');
    const exit = get('exit_status');
    return [failed && failed !== '0' ? `failed ${failed}` : undefined, exit !== undefined ? `exit_status ${exit}` : undefined].filter(Boolean).join(', ') || undefined;
  },
};
