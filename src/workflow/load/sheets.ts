// Sample sheets named in [workflow] (`sample_groups_file`, `pairs_file`, `samples_file`) are read
// once the config is known, so a project can name its sheet in a config file or with KEY=VALUE:
// `samples_file = "{config.samplesheet}"`. Paths are relative to the project directory. Rows are added
// after the inline [[sample_groups]] and [[pairs]].
import path from 'node:path';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { KeyPath, Workflow } from '../model.js';
import type { KeyPositions } from '../positions/index.js';
import { compileTemplate, renderTemplate } from '../render/template.js';
import type { ReadSheet } from './normalise.js';
import { readPairsSheet, readSampleGroupsSheet, readSamplesSheet, type SheetText } from './sample-sheet.js';

/** The engine's key for the workflow file's folder (a sheet the pipeline ships: `{config.pipeline_dir}/test/samples.csv`). */
const PIPELINE_DIR = 'pipeline_dir';

type SheetKey = 'sample_groups_file' | 'pairs_file' | 'samples_file';

/** The config keys a sheet path uses (so a key with no value can be reported as needed). */
export function sheetConfigKeys(workflow: Workflow): string[] {
  const texts = [workflow.meta.sampleGroupsFile, workflow.meta.pairsFile, workflow.meta.samplesFile, workflow.meta.samplePattern];
  return texts.flatMap((t) => (t === undefined ? [] : compileTemplate(t).configKeys));
}

/** Read every sheet the workflow names into it; problems are E005, E039 (and the readers' codes). */
export function addSheets(workflow: Workflow, source: { file: string; positions: KeyPositions; readSheet?: ReadSheet }): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  const at = (key: SheetKey) => ({ file: source.file, ...(source.positions.locate(['workflow', key] as KeyPath) ?? {}) });
  const read = (key: SheetKey, written: string | undefined): SheetText | undefined => {
    if (written === undefined) return undefined;
    const template = compileTemplate(written);
    for (const k of template.configKeys) {
      if (workflow.config.has(k) || k === PIPELINE_DIR) continue;
      diagnostics.push(diagnostic('E005', `workflow.${key}: {config.${k}} is not defined in [config]`, { ...at(key), hint: `declare ${k} in [config], then give it with ${k}=VALUE or --configfile` }));
      return undefined;
    }
    // A key with no value yet (required, given at run time): validate notes it, dry-run and run stop (E037).
    const value = (k: string) => workflow.config.get(k)?.value ?? (k === PIPELINE_DIR ? workflow.pipelineDir : undefined);
    if (template.configKeys.some((k) => value(k) === undefined)) return undefined;
    const relative = renderTemplate(template, { config: value });
    const got = source.readSheet?.(relative) ?? { error: 'no file system to read it from here' };
    if ('error' in got) {
      const from = relative !== written ? ` (from ${JSON.stringify(written)})` : '';
      diagnostics.push(diagnostic('E039', `workflow.${key} ${JSON.stringify(relative)}${from} cannot be read: ${got.error}`, { ...at(key), hint: 'the path is relative to the project directory (the current directory, or --directory)' }));
      return undefined;
    }
    workflow.sheets = [...(workflow.sheets ?? []), relative];
    return { file: got.shown ?? (path.isAbsolute(relative) ? relative : path.join(path.dirname(source.file), relative)), text: got.text };
  };
  const groups = read('sample_groups_file', workflow.meta.sampleGroupsFile);
  if (groups) workflow.sampleGroups.push(...readSampleGroupsSheet(groups, diagnostics));
  const samples = read('samples_file', workflow.meta.samplesFile);
  if (samples) {
    const sheet = readSamplesSheet(samples, diagnostics);
    workflow.sampleGroups.push(...sheet.groups);
    workflow.samplesSheet = { file: samples.file, columns: sheet.columns };
  }
  const pairs = read('pairs_file', workflow.meta.pairsFile);
  if (pairs) workflow.pairs.push(...readPairsSheet(pairs, diagnostics));
  return diagnostics;
}
