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
} as const satisfies Record<string, CodeInfo>;
