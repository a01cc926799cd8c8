// E031: a placeholder that no job of the rule could fill ({input[5]} with two inputs, {output.bam}
// with no output named bam, {params.b} not in params, {log} without a log, {memory} in a rule with no
// memory, {foo} in a command that is no wildcard any source provides and no path of the rule uses,
// and a namespace oxo-flow does not have, such as {wildcards.sample} or {resources.mem_mb}, with our
// spelling suggested). Params values are templates too, filled from the job's own values. E034: a
// pair (or sample group) lacking a value a rule uses, such as {control} for a pair without a
// control: its job would be dropped or keep the literal text. Checked once per rule on the
// templates, so validate, lint, dry-run and the AI validate_workflow tool report the same findings.
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Rule, Workflow } from '../model.js';
import { compileTemplate, type TemplateRef } from '../render/template.js';
import type { Locator } from './locate.js';
import { PAIR_WILDCARDS, SAMPLE_WILDCARDS } from './placeholders.js';
import { nearestName } from '../../diagnostics/nearest-name.js';
import { spellingOf } from './placeholder-spelling.js';
import { allTexts, type RuleText } from './rule-texts.js';

/** Pair wildcards and the Pair field each needs (undefined: always present). */
const PAIR_FIELD: Record<string, 'control' | 'experimentType' | undefined> = {
  pair_id: undefined,
  experiment: undefined,
  tumor: undefined,
  control: 'control',
  normal: 'control',
  experiment_type: 'experimentType',
  tumor_type: 'experimentType',
};

export function checkFillablePlaceholders(w: Workflow, loc: Locator, out: Diagnostic[]): void {
  const gathered = new Map<string, string[]>();
  for (const r of w.rules) if (r.scatter?.gather) gathered.set(r.scatter.gather, [...(gathered.get(r.scatter.gather) ?? []), r.scatter.variable]);
  const groupMeta = new Set(w.sampleGroups.flatMap((g) => Object.keys(g.metadata)));
  const pairMeta = new Set(w.pairs.flatMap((p) => Object.keys(p.metadata)));
  for (const rule of w.rules) {
    const texts = allTexts(rule);
    const refs = texts.map((t) => ({ t, refs: compileTemplate(t.text).parts.filter((p): p is TemplateRef => typeof p !== 'string') }));
    const vars = new Set(refs.flatMap((r) => r.refs.flatMap((p) => (p.ref.kind === 'var' ? [p.ref.name] : []))));
    const usesSamples = [...vars].some((v) => SAMPLE_WILDCARDS.has(v));
    const usesPairs = [...vars].some((v) => PAIR_WILDCARDS.has(v) || v === 'tumor_type');
    const possible = new Set<string>([...SAMPLE_WILDCARDS, ...Object.keys(PAIR_FIELD), ...(gathered.get(rule.name) ?? [])]);
    if (rule.scatter) possible.add(rule.scatter.variable);
    if (rule.transform) possible.add(rule.transform.split.by);
    for (const e of rule.expandInputs) for (const v of Object.keys(e.variables)) possible.add(v);
    if (usesSamples) for (const k of groupMeta) possible.add(k);
    if (usesPairs) for (const k of pairMeta) possible.add(k);
    // A wildcard in a path decides the rule's jobs: without a source it is E021 in dry-run and W024 in
    // lint. A name only a command uses decides nothing, so here is where it must be caught.
    for (const r of refs) {
      if (isCommand(r.t) || r.t.field === 'params' || r.t.field === 'expand_source') continue;
      for (const p of r.refs) if (p.ref.kind === 'var') possible.add(p.ref.name);
    }
    const reported = new Set<string>();
    for (const { t, refs: list } of refs) {
      for (const part of list) {
        if (reported.has(part.raw)) continue;
        const ref = part.ref;
        const spelling = ref.kind === 'unknown' && !ref.name.startsWith('_') ? spellingOf(ref.name, ref.key, ref.index, possible) : undefined;
        const why = spelling !== undefined ? `${spelling.why}${spelling.suggestion ? ` (did you mean ${spelling.suggestion}?)` : ''}` : unfillable(w, rule, t, part, possible);
        if (why === undefined) continue;
        reported.add(part.raw);
        const where = loc.inValue(t.path, part.raw, rule.name);
        out.push(diagnostic('E031', `${part.raw} in ${fieldName(t)} of rule "${rule.name}" cannot be filled: ${why}`, spelling?.suggestion ? { ...where, hint: `write ${spelling.suggestion}` } : where));
      }
    }
    checkSourcesHaveValues(w, loc, rule, vars, out);
  }
}

function fieldName(t: RuleText): string {
  if (t.field === 'params') return `params.${String(t.path[3])}`;
  if (t.field === 'expand_source') return `expand_inputs.variables.${String(t.path[5])}`;
  return t.field === 'map' ? 'transform.map' : t.field === 'combine' ? 'transform.combine.shell' : t.field;
}

function isCommand(t: RuleText): boolean {
  return t.field === 'shell' || t.field === 'map' || t.field === 'combine' || t.field === 'script';
}

/** What a params value may hold: the job's own values, never its paths or other params. */
const PARAMS_ONLY = 'a params value is filled from the job\'s wildcards, {config.key}, {threads} and {memory}';

function unfillable(w: Workflow, rule: Rule, t: RuleText, part: TemplateRef, possible: ReadonlySet<string>): string | undefined {
  const ref = part.ref;
  const inCommand = isCommand(t);
  if (t.field === 'params' && (ref.kind === 'paths' || ref.kind === 'log' || ref.kind === 'params')) return `${PARAMS_ONLY}; use ${part.raw} in the command itself`;
  if (t.field === 'expand_source' && ref.kind !== 'var' && ref.kind !== 'config' && ref.kind !== 'unknown') return 'an expand_inputs source is filled from the job\'s wildcards only, such as config.samples_{group}';
  switch (ref.kind) {
    case 'paths': {
      if (!inCommand) return `a path cannot refer to {${ref.which}}`;
      const set = ref.which === 'input' ? rule.input : rule.output;
      // A combine step's inputs are the chunks; gathers and expand_inputs add inputs at plan time.
      const open = ref.which === 'input' && (t.field === 'combine' || rule.expandInputs.length > 0);
      if (ref.name !== undefined) {
        if (t.field === 'combine' && ref.which === 'input') return `a combine step's inputs are its chunks, which have no names`;
        return ref.name in set.names ? undefined : `the rule has no ${ref.which} named "${ref.name}"${namesText(set.names)}`;
      }
      if (ref.index !== undefined && !open && ref.index >= set.paths.length && !(ref.which === 'output' && t.field === 'map' && set.paths.length === 0 && ref.index === 0)) {
        return `the rule has ${set.paths.length} ${ref.which}${set.paths.length === 1 ? '' : 's'} (indexes start at 0)`;
      }
      return undefined;
    }
    case 'log':
      return rule.log === undefined ? 'the rule has no log' : t.field === 'log' ? 'a log path cannot refer to itself' : undefined;
    case 'params':
      return ref.key in rule.params ? undefined : `params has no key "${ref.key}"${Object.keys(rule.params).length > 0 ? ` (it has ${Object.keys(rule.params).join(', ')})` : ''}`;
    case 'threads':
    case 'memory':
      if (!inCommand && t.field !== 'params') return `{${ref.kind}} belongs in a command, not a path`;
      return ref.kind === 'memory' && !hasMemory(w, rule) ? 'the rule has no memory: set memory = "8G" on the rule (or in [rules.resources] or [defaults])' : undefined;
    case 'config':
    case 'unknown':
      return undefined; // E005 / E037 say when a config key has no value; the caller words an unknown one
    case 'var':
      if (ref.name === 'chunks') return t.field === 'combine' ? undefined : '{chunks} exists only in a transform.combine command';
      if (ref.name.startsWith('_')) return undefined;
      if (possible.has(ref.name)) return undefined;
      return `it is not a wildcard (sample, group, pair_id, experiment, control, experiment_type), sample or pair metadata, nor this rule's scatter or transform variable${nearText(ref.name, possible)}`;
  }
}

/** ` (did you mean {sample}?)` for a likely misspelling of a name the rule could use. */
function nearText(name: string, possible: ReadonlySet<string>): string {
  const near = nearestName(name, [...possible, 'input', 'output', 'log', 'threads', 'memory']);
  return near !== undefined ? ` (did you mean {${near}}?)` : '';
}

function hasMemory(w: Workflow, rule: Rule): boolean {
  return rule.memoryText !== undefined || rule.memoryMb !== undefined || w.defaults.memoryText !== undefined || w.defaults.memoryMb !== undefined;
}

function namesText(names: Readonly<Record<string, number>>): string {
  const keys = Object.keys(names);
  return keys.length > 0 ? ` (it has ${keys.join(', ')})` : '';
}

/** E034: every pair / sample group the rule fans out over must have each value the rule uses. */
function checkSourcesHaveValues(w: Workflow, loc: Locator, rule: Rule, vars: ReadonlySet<string>, out: Diagnostic[]): void {
  const where = (row: { file: string; line: number } | undefined, path: (string | number)[]) => ({ ...(row ? { file: row.file, line: row.line, column: 1 } : loc.at(path)), rule: rule.name });
  const usesPairs = [...vars].some((v) => v in PAIR_FIELD);
  if (usesPairs) {
    for (const name of vars) {
      const field = PAIR_FIELD[name];
      const isMeta = !(name in PAIR_FIELD) && w.pairs.some((p) => name in p.metadata);
      if (field === undefined && !isMeta) continue;
      w.pairs.forEach((p, i) => {
        const has = field !== undefined ? p[field] !== undefined : name in p.metadata;
        if (has) return;
        out.push(
          diagnostic('E034', `pair "${p.pairId}" has no ${field === 'control' ? 'control' : field === 'experimentType' ? 'experiment_type' : `metadata "${name}"`}, but rule "${rule.name}" uses {${name}}`, {
            ...where(p.row, ['pairs', i]),
            hint: field === 'control' ? 'give every pair a control (or normal), or write the rule so it does not need one' : `give every pair a value for ${name}`,
          }),
        );
      });
    }
  }
  if ([...vars].some((v) => SAMPLE_WILDCARDS.has(v))) {
    for (const name of vars) {
      if (SAMPLE_WILDCARDS.has(name) || !w.sampleGroups.some((g) => name in g.metadata)) continue;
      w.sampleGroups.forEach((g, i) => {
        if (name in g.metadata) return;
        out.push(diagnostic('E034', `sample group "${g.name}" has no metadata "${name}", but rule "${rule.name}" uses {${name}}`, { ...where(g.row, ['sample_groups', i]), hint: `give every group a value for ${name}` }));
      });
    }
  }
}
