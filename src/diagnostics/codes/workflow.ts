import type { CodeInfo } from '../code-info.js';

const doc = 'docs/format.md';

/**
 * Workflow (.oxoflow) codes. E001–E011 keep the reference system's meanings; E000 and E020+ are ours.
 * Lint codes (W*, S008) live here too, each with exactly one meaning.
 */
export const workflowCodes = {
  E000: { severity: 'error', title: 'TOML syntax error', hint: 'fix the TOML at the marked position', doc },
  E001: { severity: 'error', title: 'workflow name is empty', hint: 'set [workflow] name = "my-pipeline"', doc },
  E002: { severity: 'error', title: 'invalid rule', doc },
  E003: { severity: 'error', title: 'output wildcard not present in inputs', doc },
  E004: { severity: 'error', title: 'invalid memory value', hint: 'use an integer with an optional K, M, G or T suffix, e.g. "8G"; a bare number is MB', doc },
  E005: { severity: 'error', title: 'undefined config key', doc },
  E006: { severity: 'error', title: 'DAG error: cycle or two producers of one output', doc },
  E007: { severity: 'error', title: 'depends_on names an unknown rule', doc },
  E009: { severity: 'error', title: '".." in an input or output path', hint: 'keep paths inside the project; use a [config] key for external data', doc },
  E011: { severity: 'error', title: 'blocked shell pattern', doc },
  E020: { severity: 'error', title: 'unknown key', doc },
  E021: { severity: 'error', title: 'wildcard without a source', hint: 'declare [[sample_groups]], set workflow.sample_pattern, or pass --samples', doc },
  E022: { severity: 'error', title: '`when` expression does not parse', doc },
  E023: { severity: 'error', title: 'more than one environment backend in a rule', hint: 'keep exactly one of conda, mamba, pixi, docker, singularity, venv, modules', doc },
  E024: { severity: 'error', title: 'wrong type', doc },
  E025: { severity: 'error', title: 'missing required key', doc },
  E030: { severity: 'error', title: 'a sample or wildcard value cannot be a file name', hint: 'use names of letters, digits, ".", "_" and "-" that do not start with "-"; "/", NUL, newlines, "." and ".." are refused', doc },
  E031: { severity: 'error', title: 'placeholder that cannot be filled', doc },
  E032: { severity: 'error', title: 'a rendered path leaves the project', hint: 'values substituted into paths must keep them inside the project directory', doc },
  E033: { severity: 'error', title: 'file is not valid UTF-8', hint: 'save the file as UTF-8', doc },
  E034: { severity: 'error', title: 'a pair lacks a value a rule uses', doc },
  E035: { severity: 'error', title: 'values_from does not name a config key', hint: 'write values_from = "config.KEY", or list the values in values = [...]', doc },
  E036: { severity: 'error', title: 'empty list of values', doc },
  E037: { severity: 'error', title: 'required config key has no value', doc },
  E038: { severity: 'error', title: 'invalid time_limit', hint: 'use e.g. "30s", "45m", "2h", "1d", "1h30m" or "HH:MM:SS"', doc },
  E039: { severity: 'error', title: 'sample sheet cannot be used', doc },
  E040: { severity: 'error', title: 'a rule writes another rule\'s protected output', doc },
  E041: { severity: 'error', title: 'a placeholder in a shell context where no value is safe', hint: 'move the placeholder out of single quotes, quoted here-documents, arithmetic, case patterns and ${…} operators, or out of the arguments of eval, sh -c and the like', doc },
  E042: { severity: 'error', title: 'a shell command does not parse', hint: 'fix the shell syntax at the marked position (an unclosed quote, a missing done or fi)', doc },
  E043: { severity: 'error', title: 'a control character in a value', hint: 'remove the NUL or control character; config values may hold tabs and newlines', doc },
  E044: { severity: 'error', title: 'a workflow over the engine\'s limits', hint: 'split the samples over several runs (--samples, or one sheet per batch)', doc },
  E050: { severity: 'error', title: 'an option list where the shell takes one word', hint: 'put {params.key} where a command takes arguments (cmd {params.key}), or write the value as one string', doc },

  // Lint findings: warnings fail `lint --strict`, info never fails. Numbers keep the reference
  // system's meanings; codes it used for two things keep one of them, and W026+ are ours.
  W001: { severity: 'warning', title: 'workflow has no description', hint: 'add description = "..." to [workflow]', doc },
  W002: { severity: 'warning', title: 'workflow has no author', hint: 'add author = "..." to [workflow]', doc },
  W003: { severity: 'info', title: 'rule has no description', hint: 'add description = "..." to the rule', doc },
  W004: { severity: 'info', title: 'rule runs a command but keeps no log', hint: 'add log = "logs/<rule>.log" and redirect stderr to {log}', doc },
  W005: { severity: 'warning', title: 'more than 8 threads and no memory set', hint: 'set memory = "..." so a scheduler can place the job', doc },
  W006: { severity: 'info', title: 'rule name contains "-"', hint: 'snake_case names (align_reads) read better in {placeholders} and job ids', doc },
  W008: { severity: 'info', title: 'rule runs in the system environment', hint: 'declare [rules.environment] (or [defaults.environment]) to make it reproducible', doc },
  W009: { severity: 'warning', title: 'more than 32 threads and no memory set', hint: 'set memory = "..."; very wide jobs without a memory request are often killed', doc },
  W016: { severity: 'info', title: 'environment file is not a lock file', hint: 'pin versions with a lock file (e.g. conda-lock, pixi.lock) for reproducible runs', doc },
  W017: { severity: 'warning', title: 'absolute input or output path', hint: 'keep data paths relative to the project, or put them in [config]', doc },
  W018: { severity: 'warning', title: 'path starts with ~', hint: 'the shell does not expand ~ inside quoted paths; use a [config] key with the full path', doc },
  W019: { severity: 'warning', title: 'rule runs a command but has no outputs and no dependents', hint: 'declare its outputs so the engine can tell when it is up to date', doc },
  W023: { severity: 'warning', title: 'risky shell construct', doc },
  W024: { severity: 'warning', title: 'wildcard without a declared source', hint: 'declare [[sample_groups]] or [[pairs]], set workflow.sample_pattern, or pass --samples to dry-run/run', doc },
  W026: { severity: 'warning', title: '[variables] table is ignored', hint: 'declare samples in [[sample_groups]] or set workflow.sample_pattern; use scatter/transform for other value lists', doc },
  W027: { severity: 'warning', title: 'unsupported format_version', hint: 'this version of oxo-flow reads format 1.x', doc },
  S008: { severity: 'warning', title: 'secret-looking literal in the workflow file', hint: 'pass secrets through the environment (${VAR} in shell) or a sensitive [config] key set on the command line', doc },
} as const satisfies Record<string, CodeInfo>;
