// The one expansion pipeline: overrides → samples → config → jobs → DAG. planWorkflow (dry-run and
// run), the graph drawing and validate all call it, so they cannot disagree about which jobs a
// workflow has, what their commands are, or which problems stop it.
import { diagnostic, hasErrors, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { findBlockedPattern } from '../checks/blocked-shell.js';
import { unusableName, unusableNameDiagnostic } from '../checks/wildcard-values.js';
import { buildDag, type Dag } from '../dag/build-dag.js';
import type { ConfigValue, Rule, Workflow } from '../model.js';
import { compileTemplate, renderTemplate } from '../render/template.js';
import { analyseShell } from '../render/shell-contexts.js';
import { compileParams, renderParams } from '../render/params.js';
import { renderShown } from '../render/script.js';
import { locate } from './dimensions.js';
import { expandJobs, type ExpandedJob } from './expand-jobs.js';
import { parseOverrides } from './overrides.js';
import { effectiveConfig, resolveSamples, type SampleSource } from './sources.js';

export interface ExpandWorkflowSettings {
  /** `KEY=VALUE` config overrides as typed on the command line. */
  overrides?: readonly string[];
  /** `--samples a,b,c`, already split. */
  samples?: readonly string[];
  /** Lists a directory (absolute path), for workflow.sample_pattern; without it the pattern finds nothing. */
  list?: (dir: string) => string[] | undefined;
  /**
   * Rule-level views (validate, the rule graph): a wildcard without a source gets one stand-in value
   * instead of E021, so the rest of the workflow is still checked.
   */
  standIns?: boolean;
}

export interface ExpandedWorkflow {
  /** The effective config: file values, overrides, then the engine's own keys. */
  config: Map<string, ConfigValue>;
  samples: SampleSource;
  jobs: ExpandedJob[];
  dag: Dag;
}

export function expandWorkflow(workflow: Workflow, settings: ExpandWorkflowSettings = {}): { expanded?: ExpandedWorkflow; diagnostics: Diagnostic[] } {
  const overrides = parseOverrides(settings.overrides ?? [], workflow.config);
  if (hasErrors(overrides.diagnostics)) return { diagnostics: overrides.diagnostics };
  const fileConfig = effectiveConfig(workflow, overrides.values, []);
  const samples = resolveSamples(workflow, settings.samples, (k) => fileConfig.get(k), settings.list);
  const diagnostics = [...samples.diagnostics, ...unusableSampleNames(workflow, samples.source)];
  if (hasErrors(diagnostics)) return { diagnostics };
  const config = effectiveConfig(workflow, overrides.values, samples.source.members);

  diagnostics.push(...unsetConfig(workflow, config), ...blockedOnceRendered(workflow, config));
  const expanded = expandJobs(workflow, { samples: samples.source, config, standIns: settings.standIns ?? false });
  diagnostics.push(...expanded.diagnostics);
  // A plan stops at the first stage with errors; a rule-level view (validate) still checks the DAG
  // of the jobs it could make, so independent problems are all reported in one run.
  if (hasErrors(diagnostics) && !settings.standIns) return { diagnostics };
  const built = buildDag(workflow, expanded.jobs);
  diagnostics.push(...built.diagnostics);
  if (built.dag === undefined || hasErrors(diagnostics)) return { diagnostics };
  return { expanded: { config, samples: samples.source, jobs: expanded.jobs, dag: built.dag }, diagnostics };
}

/** Names from --samples or found by sample_pattern (declared names are checked with the file). */
function unusableSampleNames(workflow: Workflow, source: SampleSource): Diagnostic[] {
  if (source.origin !== 'samples_flag' && source.origin !== 'sample_pattern') return [];
  const out: Diagnostic[] = [];
  for (const m of source.members) {
    const why = unusableName(m.sample);
    if (why === undefined) continue;
    const where = source.origin === 'samples_flag' ? { file: workflow.file } : { file: workflow.file, ...(workflow.positions.locate(['workflow', 'sample_pattern']) ?? {}) };
    out.push(unusableNameDiagnostic(source.origin === 'samples_flag' ? 'sample name (from --samples)' : 'sample name (found by workflow.sample_pattern)', m.sample, why, where));
  }
  return out;
}

/**
 * E037: a declared config key with no value (no default, no override) that is required or that a
 * rule uses. Pointed at the key in [config], where the value belongs.
 */
function unsetConfig(workflow: Workflow, config: ReadonlyMap<string, ConfigValue>): Diagnostic[] {
  const used = new Set<string>();
  for (const rule of workflow.rules) for (const text of ruleTemplates(rule)) for (const k of compileTemplate(text).configKeys) used.add(k);
  const out: Diagnostic[] = [];
  for (const [key, entry] of workflow.config) {
    if (config.has(key) || (!entry.declaration?.required && !used.has(key))) continue;
    const pos = workflow.positions.locate(['config', key]);
    out.push(
      diagnostic('E037', `config.${key} has no value: it ${entry.declaration?.required ? 'is required' : 'is used by a rule'} and has no default`, {
        file: workflow.file,
        ...(pos ?? {}),
        hint: `set default = ... in [config], or pass ${key}=VALUE to dry-run or run`,
      }),
    );
  }
  return out;
}

function ruleTemplates(rule: Rule): string[] {
  const out = [...rule.input.paths, ...rule.output.paths];
  if (rule.log !== undefined) out.push(rule.log);
  if (rule.shell !== undefined) out.push(rule.shell);
  if (rule.script !== undefined) out.push(rule.script);
  if (rule.transform?.map !== undefined) out.push(rule.transform.map);
  if (rule.transform?.combine !== undefined) out.push(rule.transform.combine.shell);
  for (const e of rule.expandInputs) out.push(e.pattern);
  for (const v of Object.values(rule.params)) for (const x of Array.isArray(v) ? v : [v]) if (typeof x === 'string') out.push(x);
  return out;
}

/** Params values with their `{config.k}` placeholders filled (wildcards stay as written). */
function withConfig(params: Rule['params'], config: (key: string) => ConfigValue | undefined): Rule['params'] {
  const compiled = compileParams(params);
  return compiled === undefined ? params : renderParams(compiled, { config });
}

/**
 * E011 on the command as it will run: `rm -rf {config.target}` with target = "/" (in the file or on
 * the command line) is `rm -rf /`, and `rm -rf {config.outdir}/*` with outdir "" is `rm -rf ''/*`.
 * Judged on the command as a person reads it, every config and params value written in (quoted as
 * a shell user would), and the paths built from them; wildcard values cannot name a root or a home
 * (E030 refuses "/", "~", "." and ".." in them). One render per rule, not per job. The template
 * itself is checked with the file (and reported there), so only a command that values make
 * destructive is reported here.
 */
function blockedOnceRendered(workflow: Workflow, config: ReadonlyMap<string, ConfigValue>): Diagnostic[] {
  const out: Diagnostic[] = [];
  const getConfig = (k: string) => config.get(k);
  for (const rule of workflow.rules) {
    const paths = (list: readonly string[]) => list.map((p) => renderTemplate(compileTemplate(p), { config: getConfig }));
    const values = {
      input: { paths: paths(rule.input.paths), names: rule.input.names },
      output: { paths: paths(rule.output.paths), names: rule.output.names },
      ...(rule.log !== undefined ? { log: renderTemplate(compileTemplate(rule.log), { config: getConfig }) } : {}),
      params: withConfig(rule.params, getConfig),
      config: getConfig,
    };
    const commands: [string, string | undefined][] = [
      ['shell', rule.shell],
      ['transform.map', rule.transform?.map],
      ['transform.combine.shell', rule.transform?.combine?.shell],
    ];
    for (const [what, text] of commands) {
      if (text === undefined || findBlockedPattern(text) !== undefined) continue;
      const template = compileTemplate(text);
      if (template.parts.length === 1 && typeof template.parts[0] === 'string') continue;
      const analysis = analyseShell(text, template);
      // A command the checks refuse (E041, E042) never runs; they say why.
      if (analysis.syntaxError !== undefined || analysis.refused.length > 0) continue;
      const found = findBlockedPattern(renderShown(template, analysis, values));
      if (found === undefined) continue;
      out.push(
        diagnostic('E011', `${what} of rule "${rule.name}" is blocked once its values are filled in (${found.category}: \`${found.match}\` ${found.why})`, {
          ...locate(workflow, rule, what.split('.')[0]),
          rule: rule.name,
          hint: 'a config or params value makes this command destructive; change the value, or target a path inside the project',
        }),
      );
    }
  }
  return out;
}
