// What a placeholder in a namespace oxo-flow does not have most likely meant, in oxo-flow's own
// spelling: `{wildcards.sample}` → `{sample}`, `{resources.mem_mb}` → `{memory}`, `{param.x}` →
// `{params.x}`. Habits carried over from Snakemake (and drafts a model writes) otherwise stay in the
// command as literal text. Used by the E031 check, so validate, lint, dry-run, run and the AI
// validate_workflow tool give the same suggestion.
import { nearestName } from '../../diagnostics/nearest-name.js';

/** The namespaces with a key (`{input.name}`) or an index (`{input[0]}`) that oxo-flow defines. */
const KEYED = ['input', 'output', 'params', 'config'];
const RESOURCE_MEMORY = /^(mem|memory|mem_mb|mem_gb|mem_mib|mem_gib|mb|gb)$/i;
const RESOURCE_THREADS = /^(threads|cpus|cpu|cores|nodes|_cores)$/i;

export interface Spelling {
  why: string;
  /** Our spelling, when one is likely. */
  suggestion?: string;
}

/** Why `{name.key}` / `{name[index]}` fills nothing, and what to write instead when that is clear. */
export function spellingOf(name: string, key: string | undefined, index: number | undefined, wildcardNames: ReadonlySet<string>): Spelling {
  const raw = key !== undefined ? `{${name}.${key}}` : `{${name}[${index}]}`;
  const lower = name.toLowerCase();
  if (lower === 'wildcards' || lower === 'wildcard') {
    return { why: `oxo-flow has no {wildcards.…}: a wildcard is a placeholder of its own name`, suggestion: key !== undefined ? `{${key}}` : undefined };
  }
  if (lower === 'resources' || lower === 'resource') {
    if (key !== undefined && RESOURCE_MEMORY.test(key)) return { why: 'the job\'s memory is {memory} (as written in the rule, e.g. 8G)', suggestion: '{memory}' };
    if (key !== undefined && RESOURCE_THREADS.test(key)) return { why: 'the job\'s threads are {threads}', suggestion: '{threads}' };
    return { why: 'resources have no placeholders besides {threads} and {memory}; put other values in params ({params.key})' };
  }
  if ((lower === 'threads' || lower === 'memory' || lower === 'log') && key === undefined) {
    return { why: `{${lower}} is one value, with no index`, suggestion: `{${lower}}` };
  }
  if ((lower === 'params' || lower === 'config') && index !== undefined) {
    return { why: `${lower} values are named, not numbered: {${lower}.key}` };
  }
  const namespace = KEYED.includes(lower) ? lower : nearestName(name, KEYED);
  if (namespace !== undefined && key !== undefined) return { why: `oxo-flow has no {${name}.…} placeholders`, suggestion: `{${namespace}.${key}}` };
  if (namespace === 'input' || namespace === 'output') return { why: `oxo-flow has no {${name}[…]} placeholders`, suggestion: `{${namespace}[${index}]}` };
  // `{sample.x}` for sample metadata `x`, `{group.x}`, `{pair.x}`: metadata is a placeholder of its own name.
  if (key !== undefined && wildcardNames.has(key)) return { why: `oxo-flow has no {${name}.…} placeholders: a wildcard or metadata value is a placeholder of its own name`, suggestion: `{${key}}` };
  return { why: `${raw} is no placeholder of oxo-flow's: with a dot or an index there are only {input…}, {output…}, {params.key} and {config.key}` };
}
