// How a job's command is started inside its environment. Each backend gets the command once, as the
// argument of `sh -c` (or of the backend's own runner): there is never a second shell layer that
// would re-interpret the quoting the planner did.
import { createHash } from 'node:crypto';
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type { Environment } from '../workflow/model.js';
import { shellQuote } from '../workflow/render/shell-quote.js';

export interface Launch {
  argv: string[];
  /** Extra environment variables for the job. */
  env?: Record<string, string>;
}

/** A one-time step before any job of the environment runs (e.g. create a conda env from a YAML file). */
export interface Preparation {
  key: string;
  argv: string[];
  /** Skip the step when this path exists already. */
  creates: string;
  label: string;
}

export interface Backend {
  /** The program that must be on PATH (the first one found of these). */
  programs: string[];
  /** `names`: the variables the job's script refers to (values in the launcher's environment). */
  launch(command: string, bin: string, names?: readonly string[]): Launch;
  prepare?: Preparation;
}

/** Where a job runs (the project) and where its environment files are (the pipeline, next to the workflow file). */
export interface EnvironmentDirs {
  project: string;
  pipeline: string;
}

/** Resolve the backend of an environment; `why` explains what is missing when it cannot run. */
export function backendFor(env: Environment | undefined, dirs: EnvironmentDirs, stateRoot: string, pathVar: string | undefined, vars: Readonly<Record<string, string | undefined>>):
  | { ok: true; backend: Backend; bin: string }
  | { ok: false; why: string } {
  const plain: Backend = { programs: ['sh'], launch: (command) => ({ argv: ['/bin/sh', '-c', command] }) };
  if (env === undefined) return { ok: true, backend: plain, bin: '/bin/sh' };
  const spec = Array.isArray(env.spec) ? env.spec : [env.spec];
  const first = spec[0] ?? '';
  // Environment specs ship with the pipeline; the job itself runs in the project directory.
  const abs = (p: string) => path.resolve(dirs.pipeline, p);
  const workflowDir = dirs.project;
  // A container sees the project, and the pipeline's files (scripts, environment files) read-only.
  const pipelineMount = dirs.pipeline !== dirs.project ? [dirs.pipeline] : [];
  const find = (programs: string[]) => {
    for (const p of programs) {
      const found = which(p, pathVar);
      if (found !== undefined) return found;
    }
    return undefined;
  };
  const need = (programs: string[], backend: Backend) => {
    const bin = find(programs);
    return bin === undefined
      ? ({ ok: false, why: `${env.kind} environment needs \`${programs.join('` or `')}\`, which is not on PATH` } as const)
      : ({ ok: true, backend, bin } as const);
  };
  // A Singularity image may be a file (`images/tool.sif`): a relative one ships with the pipeline.
  const image = (ref: string) => (/^[a-z]+:\/\//i.test(ref) || !/\.(sif|simg|img)$/i.test(ref) ? ref : abs(ref));
  switch (env.kind) {
    case 'conda':
    case 'mamba': {
      const programs = env.kind === 'mamba' ? ['mamba', 'micromamba'] : ['conda', 'mamba', 'micromamba'];
      if (/\.ya?ml$/i.test(first)) {
        // An environment file: created once under .oxo-flow/conda/, keyed by the file's content.
        let digest: string;
        try {
          digest = createHash('sha256').update(readFileSync(abs(first))).digest('hex').slice(0, 16);
        } catch {
          return { ok: false, why: `${env.kind} environment file ${first} cannot be read` };
        }
        const prefix = path.join(stateRoot, 'conda', digest);
        const bin = find(programs);
        if (bin === undefined) return need(programs, plain);
        return {
          ok: true,
          bin,
          backend: {
            programs,
            launch: (command, b) => ({ argv: [b, 'run', '--no-capture-output', '-p', prefix, '/bin/sh', '-c', command] }),
            prepare: { key: prefix, argv: [bin, 'env', 'create', '--yes', '--quiet', '-p', prefix, '-f', abs(first)], creates: prefix, label: `create ${env.kind} environment from ${first}` },
          },
        };
      }
      const where = first.includes('/') ? ['-p', abs(first)] : ['-n', first];
      return need(programs, { programs, launch: (command, b) => ({ argv: [b, 'run', '--no-capture-output', ...where, '/bin/sh', '-c', command] }) });
    }
    case 'pixi':
      return need(['pixi'], { programs: ['pixi'], launch: (command, b) => ({ argv: [b, 'run', '--manifest-path', abs(first), '/bin/sh', '-c', command] }) });
    case 'docker': {
      const user = typeof process.getuid === 'function' ? [`--user`, `${process.getuid()}:${process.getgid?.() ?? 0}`] : [];
      return need(['docker', 'podman'], {
        programs: ['docker', 'podman'],
        // A container gets none of the launcher's environment unless named: `-e NAME` passes the job's
        // values by name (never in argv, where `ps` would show them).
        launch: (command, b, names = []) => ({
          argv: [b, 'run', '--rm', ...user, ...names.flatMap((n) => ['-e', n]), '-v', `${workflowDir}:${workflowDir}`, ...pipelineMount.flatMap((d) => ['-v', `${d}:${d}:ro`]), '-w', workflowDir, first, '/bin/sh', '-c', command],
        }),
      });
    }
    case 'singularity':
      return need(['apptainer', 'singularity'], {
        programs: ['apptainer', 'singularity'],
        launch: (command, b) => ({
          argv: [b, 'exec', '--bind', workflowDir, ...pipelineMount.flatMap((d) => ['--bind', `${d}:${d}:ro`]), '--pwd', workflowDir, image(first), '/bin/sh', '-c', command],
        }),
      });
    case 'venv': {
      const dir = abs(first);
      if (!isDir(path.join(dir, 'bin'))) return { ok: false, why: `venv ${first} has no bin/ directory (create it with \`python3 -m venv ${first}\`)` };
      // What `activate` does, without sourcing it: the venv's bin first on PATH.
      return {
        ok: true,
        bin: '/bin/sh',
        backend: { programs: ['sh'], launch: (command) => ({ argv: ['/bin/sh', '-c', command], env: { VIRTUAL_ENV: dir, PATH: `${path.join(dir, 'bin')}:${pathVar ?? ''}` } }) },
      };
    }
    case 'modules': {
      const home = vars.MODULESHOME;
      if (home === undefined || home === '' || !isDir(home)) return { ok: false, why: 'modules environment needs Environment Modules or Lmod (MODULESHOME is not set)' };
      const load = `. ${shellQuote(path.join(home, 'init', 'sh'))} && module load ${spec.map(shellQuote).join(' ')}`;
      // The module function exists only inside a shell: load, then the command, in the one `sh -c`.
      return { ok: true, bin: '/bin/sh', backend: { programs: ['sh'], launch: (command) => ({ argv: ['/bin/sh', '-c', `${load} && {\n${command}\n}`] }) } };
    }
  }
}

/** Why an environment cannot be used here (its program is missing, its file unreadable), or undefined. */
export function environmentAbsent(env: Environment, dirs: EnvironmentDirs, stateRoot: string, vars: Readonly<Record<string, string | undefined>>): string | undefined {
  const b = backendFor(env, dirs, stateRoot, vars.PATH, vars);
  return b.ok ? undefined : b.why;
}

/** The full path of a program on PATH, or undefined. */
function which(program: string, pathVar: string | undefined): string | undefined {
  if (program.includes('/')) return isExecutable(program) ? program : undefined;
  for (const dir of (pathVar ?? '').split(path.delimiter)) {
    if (dir === '') continue;
    const full = path.join(dir, program);
    if (isExecutable(full)) return full;
  }
  return undefined;
}

function isExecutable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}
