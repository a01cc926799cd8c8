// What a command knows about the project besides the workflow file: its directory (`-d/--directory`,
// default the current one) and the `--configfile` files it reads. I/O at the edge: the files are
// read here and parsed by src/workflow/load/config-file.ts.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { decodeUtf8 } from '../workflow/load/index.js';
import { type ConfigLayer, isYamlConfig, parseConfigFile } from '../workflow/load/config-file.js';

export interface ProjectFlags {
  /** `-d/--directory`: the project directory, as typed. */
  directory?: string;
  /** `--configfile`: in command-line order (a later file wins). */
  configfile?: string[];
}

export interface Project {
  /** Absolute. */
  dir: string;
  /** As messages show it: '' for the current directory, else as typed. */
  shown: string;
}

/** The project directory: `--directory`, else the current directory. It must be a directory. */
export function projectDirectory(flags: ProjectFlags, cwd: string): { ok: true; project: Project } | { ok: false; diagnostic: Diagnostic } {
  if (flags.directory === undefined) return { ok: true, project: { dir: cwd, shown: '' } };
  const dir = path.resolve(cwd, flags.directory);
  const stats = statSync(dir, { throwIfNoEntry: false });
  if (stats === undefined || !stats.isDirectory()) {
    return {
      ok: false,
      diagnostic: diagnostic('CLI033', `--directory ${flags.directory}: ${stats === undefined ? 'no such directory' : 'not a directory'}`, {
        hint: stats === undefined ? `create it first (mkdir -p ${flags.directory}): oxo-flow does not guess where a project should be` : 'pass the project directory, not a file in it',
      }),
    };
  }
  const relative = path.relative(cwd, dir);
  return { ok: true, project: { dir, shown: relative === '' ? '' : relative.startsWith('..') ? dir : relative } };
}

/** Read and parse every `--configfile` (relative to the current directory, as typed). */
export async function readConfigFiles(files: readonly string[], cwd: string): Promise<{ layers: ConfigLayer[]; diagnostics: Diagnostic[] }> {
  // The YAML parser is loaded only for a YAML file.
  const parseYaml = files.some(isYamlConfig) ? (await import('../workflow/load/config-yaml.js')).parseYaml : undefined;
  const layers: ConfigLayer[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const file of files) {
    let bytes: Buffer;
    try {
      bytes = readFileSync(path.resolve(cwd, file));
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EACCES' ? 'permission denied' : e.code === 'EISDIR' ? 'it is a directory' : e.message;
      diagnostics.push(diagnostic('CLI032', `config file ${file} cannot be read: ${why}`, { file, hint: 'the path is relative to the current directory' }));
      continue;
    }
    const decoded = decodeUtf8(bytes, file);
    if ('diagnostic' in decoded) {
      diagnostics.push(decoded.diagnostic);
      continue;
    }
    const parsed = parseConfigFile(decoded.text.replace(/^\uFEFF/, ''), file, parseYaml);
    if ('diagnostic' in parsed) diagnostics.push(parsed.diagnostic);
    else layers.push(parsed.layer);
  }
  return { layers, diagnostics };
}

/**
 * The project of a command that only reads or cleans `.oxo-flow/` (unlock, clean): `--directory`,
 * else a directory given as the argument, else the current directory. A workflow file as the
 * argument names the pipeline, not the project, as for `run`.
 */
export function projectOfArgument(arg: string | undefined, directory: string | undefined, cwd: string): string {
  if (directory !== undefined) return path.resolve(cwd, directory);
  const target = arg === undefined ? undefined : path.resolve(cwd, arg);
  return target !== undefined && (statSync(target, { throwIfNoEntry: false })?.isDirectory() ?? false) ? target : cwd;
}
