// A job script that is one plain command (`touch "${OXO_OUTPUT_0}"`) needs no shell: the light
// spawner can exec its words directly and save a /bin/sh start per job (src/run/spawner/). This module
// decides, conservatively, whether a script is such a command and what argv sh would build for it.
// Anything it is not sure of gives null, and the job runs through `/bin/sh -c` as always.
//
// Accepted: one line (a trailing newline is fine) of words separated by spaces or tabs, each word
// either only shell-safe literal characters (nothing sh expands, splits, globs or treats as an
// operator) or a whole `"${NAME}"` reference to a variable of the job's environment (its value is the
// word, unsplit and unglobbed, exactly as sh gives it). The first word must be a literal that names a
// program: not an assignment, not a reserved word and not a builtin of dash or bash (a builtin such as
// `echo` or `test` behaves differently from the program of the same name, and `cd`, `exit`, `exec`…
// are the shell's own). The environment must be one sh passes on unchanged (see directEnvironmentOk).

import { SHELL_SAFE } from './shell-quote.js';

const REFERENCE = /^"\$\{([A-Za-z_][A-Za-z0-9_]*)\}"$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** POSIX reserved words, and every builtin of dash and of bash (either may be /bin/sh). */
const SHELL_WORDS = new Set(
  (
    '! { } [[ ]] case do done elif else esac fi for function if in select then time until while ' +
    '. : [ alias bg bind break builtin caller cd chdir command compgen complete compopt continue declare dirs disown echo ' +
    'enable eval exec exit export false fc fg getopts hash help history jobs kill let local logout mapfile popd printf ' +
    'pushd pwd read readarray readonly return set shift shopt source suspend test times trap true type typeset ulimit ' +
    'umask unalias unset wait'
  ).split(' '),
);

/**
 * The argv sh would run for `script`, or null when the script is not provably one simple command.
 * `env` is the job's environment: a reference to a variable that is not set gives null.
 */
export function simpleCommand(script: string, env: Readonly<Record<string, string | undefined>>): string[] | null {
  const line = script.endsWith('\n') ? script.slice(0, -1) : script;
  if (line.includes('\n') || line.includes('\r')) return null;
  const words = line.split(/[ \t]+/).filter((w) => w !== '');
  if (words.length === 0) return null;
  const first = words[0]!;
  if (!SHELL_SAFE.test(first) || first.includes('=') || SHELL_WORDS.has(first)) return null;
  const argv: string[] = [];
  for (const word of words) {
    if (SHELL_SAFE.test(word)) {
      argv.push(word);
      continue;
    }
    const ref = REFERENCE.exec(word);
    if (ref === null) return null;
    const value = env[ref[1]!];
    if (value === undefined) return null;
    argv.push(value);
  }
  return argv;
}

/**
 * Whether sh would pass `env` on to the command unchanged, apart from PWD (which the spawner sets as
 * sh does) — dash drops variables whose names are not shell names and resets IFS, OPTIND and PPID —
 * and whether the program's PATH search is the same: PATH set, and every entry an absolute folder
 * (an empty entry, a relative one, or dash's `%builtin` marks are left to sh).
 */
export function directEnvironmentOk(env: Readonly<Record<string, string | undefined>>): boolean {
  for (const k in env) {
    if (env[k] === undefined) continue;
    if (!NAME.test(k) || k === 'IFS' || k === 'OPTIND' || k === 'PPID') return false;
  }
  const pathVar = env.PATH;
  if (pathVar === undefined || pathVar === '') return false;
  return pathVar.split(':').every((d) => d.startsWith('/') && !d.includes('%'));
}
