// What `validate` needs from the DAG: E006 only (a cycle, or one output from two jobs), over the
// declared sources. A wildcard without a source is not this check's business (dry-run reports E021),
// so it gets one stand-in value and the graph is still checked.
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Workflow } from '../model.js';
import { expandJobs } from '../expand/expand-jobs.js';
import { effectiveConfig, resolveSamples } from '../expand/sources.js';
import { buildDag } from './build-dag.js';

export function graphDiagnostics(workflow: Workflow): Diagnostic[] {
  const fileConfig = effectiveConfig(workflow, new Map(), []);
  const samples = resolveSamples(workflow, undefined, (k) => fileConfig.get(k), undefined);
  const config = effectiveConfig(workflow, new Map(), samples.source.members);
  const { jobs } = expandJobs(workflow, { samples: samples.source, config, standIns: true });
  return buildDag(workflow, jobs).diagnostics.filter((d) => d.code === 'E006');
}
