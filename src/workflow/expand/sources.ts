// Where wildcard values come from: [[sample_groups]], the --samples list, files matching
// workflow.sample_pattern (through an injected directory lister), and [[pairs]]. Nothing is guessed
// from rule inputs: a wildcard without a declared source is an error later, never a literal file.
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { ConfigValue, Workflow } from '../model.js';
import { compileTemplate, renderTemplate } from '../render/template.js';
import { nearestName } from '../../diagnostics/nearest-name.js';

export interface SampleMember {
  sample: string;
  group: string;
  metadata: Readonly<Record<string, ConfigValue>>;
  /** The sample's own values from a per-sample sheet (`{sample.COLUMN}`). */
  cells?: Readonly<Record<string, string>>;
}

export type SampleOrigin = 'sample_groups' | 'samples_flag' | 'sample_pattern' | 'none';

export interface SampleSource {
  members: SampleMember[];
  origin: SampleOrigin;
  /** Why the list is empty although a source was declared (e.g. "raw/ does not exist"). */
  emptyBecause?: string;
}

/** Group name for samples that come from --samples or sample_pattern rather than a declared group. */
const DISCOVERED_GROUP = 'auto-discovered';

export function resolveSamples(
  workflow: Workflow,
  samplesFlag: readonly string[] | undefined,
  config: (key: string) => ConfigValue | undefined,
  list: ((dir: string) => string[] | undefined) | undefined,
): { source: SampleSource; diagnostics: Diagnostic[] } {
  const diagnostics: Diagnostic[] = [];
  let declared: SampleSource = { members: [], origin: 'none' };
  if (workflow.sampleGroups.length > 0) {
    const members: SampleMember[] = [];
    for (const g of workflow.sampleGroups) {
      for (const s of g.samples) {
        const cells = g.sampleRows?.[s]?.cells;
        members.push(cells === undefined ? { sample: s, group: g.name, metadata: g.metadata } : { sample: s, group: g.name, metadata: g.metadata, cells });
      }
    }
    declared = { members, origin: 'sample_groups' };
  } else if (workflow.meta.samplePattern !== undefined && list !== undefined) {
    declared = discover(workflow.meta.samplePattern, workflow.dir, config, list, diagnostics);
  }
  if (samplesFlag === undefined) return { source: declared, diagnostics };

  const wanted = samplesFlag.map((s) => s.trim()).filter((s) => s !== '');
  if (declared.origin === 'none') {
    const unique = [...new Set(wanted)];
    return { source: { members: unique.map((sample) => ({ sample, group: DISCOVERED_GROUP, metadata: {} })), origin: 'samples_flag' }, diagnostics };
  }
  // With a declared source, --samples selects from it: a name it does not know is a typo, not a new sample.
  const known = new Set(declared.members.map((m) => m.sample));
  for (const name of wanted) {
    if (known.has(name)) continue;
    const near = nearestName(name, known);
    diagnostics.push(
      diagnostic('CLI014', `--samples names "${name}", which ${declared.origin === 'sample_groups' ? '[[sample_groups]] does not list' : 'workflow.sample_pattern did not find'}${near ? ` (did you mean ${near}?)` : ''}`, {
        hint: `known samples: ${[...known].slice(0, 10).join(', ')}${known.size > 10 ? ', …' : ''}`,
      }),
    );
  }
  const keep = new Set(wanted);
  return { source: { members: declared.members.filter((m) => keep.has(m.sample)), origin: declared.origin }, diagnostics };
}

function discover(
  pattern: string,
  dir: string,
  config: (key: string) => ConfigValue | undefined,
  list: (dir: string) => string[] | undefined,
  diagnostics: Diagnostic[],
): SampleSource {
  const rendered = renderTemplate(compileTemplate(pattern), { config });
  const slash = rendered.lastIndexOf('/');
  const dirPart = slash >= 0 ? rendered.slice(0, slash) || '/' : '.';
  const filePart = rendered.slice(slash + 1);
  const file = compileTemplate(filePart);
  if (dirPart.includes('{') || !file.vars.includes('sample')) {
    diagnostics.push(
      diagnostic('E021', `workflow.sample_pattern "${pattern}" must name {sample} in its file name, with a plain directory before it`, {
        hint: 'e.g. sample_pattern = "raw/{sample}_R1.fastq.gz"',
      }),
    );
    return { members: [], origin: 'sample_pattern', emptyBecause: 'the pattern is not usable' };
  }
  let source = '^';
  let sampleGroup = 0;
  let groups = 0;
  for (const part of file.parts) {
    if (typeof part === 'string') source += part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    else {
      groups += 1;
      if (part.ref.kind === 'var' && part.ref.name === 'sample' && sampleGroup === 0) sampleGroup = groups;
      source += '(\\S+?)';
    }
  }
  const re = new RegExp(`${source}$`);
  const names = list(path.resolve(dir, dirPart));
  if (names === undefined) return { members: [], origin: 'sample_pattern', emptyBecause: `directory ${dirPart}/ does not exist` };
  const seen = new Set<string>();
  for (const name of [...names].sort()) {
    const m = re.exec(name);
    const sample = m?.[sampleGroup];
    if (sample !== undefined && sample !== '') seen.add(sample);
  }
  if (seen.size === 0) return { members: [], origin: 'sample_pattern', emptyBecause: `no file in ${dirPart}/ matches ${filePart}` };
  return { members: [...seen].map((sample) => ({ sample, group: DISCOVERED_GROUP, metadata: {} })), origin: 'sample_pattern' };
}

/**
 * The config a job sees: values from the file, then overrides, then the engine's own keys
 * (samples_list, samples_<group>, pairs_list, pipeline_dir), which never replace a key the user wrote.
 */
export function effectiveConfig(
  workflow: Workflow,
  overrides: ReadonlyMap<string, ConfigValue>,
  samples: readonly SampleMember[],
): Map<string, ConfigValue> {
  const config = new Map<string, ConfigValue>();
  for (const [key, entry] of workflow.config) if (entry.value !== undefined) config.set(key, entry.value);
  for (const [key, value] of overrides) config.set(key, value);
  const engine = new Map<string, string>();
  if (samples.length > 0) {
    engine.set('samples_list', [...new Set(samples.map((m) => m.sample))].join(','));
    const byGroup = new Map<string, Set<string>>();
    for (const m of samples) {
      const set = byGroup.get(m.group) ?? new Set<string>();
      set.add(m.sample);
      byGroup.set(m.group, set);
    }
    for (const [group, set] of byGroup) engine.set(`samples_${group}`, [...set].join(','));
  }
  if (workflow.pairs.length > 0) engine.set('pairs_list', workflow.pairs.map((p) => p.pairId).join(','));
  // The folder of the workflow file, absolute: files the pipeline ships (a tool's config) as {config.pipeline_dir}/assets/x.
  engine.set('pipeline_dir', workflow.pipelineDir);
  for (const [key, value] of engine) if (!workflow.config.has(key) && !config.has(key)) config.set(key, value);
  return config;
}
