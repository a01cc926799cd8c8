// Finding `{...}` placeholders in rule text, for the checks and lints (expansion has its own renderer).

/** `{config.key}` references; the key may contain letters, digits, `_`, `-` and `.`. */
const CONFIG_REF = /\{config\.([A-Za-z0-9_.-]+)\}/g;
/** `{name}` wildcards: a bare word, as the reference engine matches them. */
const WILDCARD = /\{(\w+)\}/g;

export interface Found {
  name: string;
  /** The whole placeholder as written, e.g. `{config.ref}`. */
  text: string;
  index: number;
}

function findAll(pattern: RegExp, text: string): Found[] {
  const out: Found[] = [];
  pattern.lastIndex = 0;
  for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) out.push({ name: m[1]!, text: m[0], index: m.index });
  return out;
}

export function configRefs(text: string): Found[] {
  return findAll(CONFIG_REF, text);
}

/** Names the engine fills for every job; they are never wildcards. */
const ENGINE_PLACEHOLDERS: ReadonlySet<string> = new Set(['input', 'output', 'log', 'threads', 'memory', 'chunks']);

/** Wildcards such as `{sample}`; engine placeholders, `_internal` names and shell `${VAR}` are left out. */
export function wildcards(text: string): Found[] {
  return findAll(WILDCARD, text).filter(
    (f) => text[f.index - 1] !== '$' && !ENGINE_PLACEHOLDERS.has(f.name) && !f.name.startsWith('_') && !/^\d+$/.test(f.name),
  );
}

/** Keys the engine adds to [config]: samples_list, pairs_list, samples_<group> and pipeline_dir. */
export function engineConfigKeys(groupNames: readonly string[]): Set<string> {
  return new Set(['samples_list', 'pairs_list', 'pipeline_dir', ...groupNames.map((g) => `samples_${g}`)]);
}

export const PAIR_WILDCARDS: ReadonlySet<string> = new Set(['pair_id', 'experiment', 'control', 'experiment_type', 'tumor', 'normal', 'tumor_type']);
export const SAMPLE_WILDCARDS: ReadonlySet<string> = new Set(['sample', 'group']);
