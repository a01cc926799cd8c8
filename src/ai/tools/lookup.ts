// Built-in read-only tools over the compiled knowledge index: lookup_skill (ranked built-in skills
// for a query) and lookup_pipeline (the pipeline graph: transitions, path, stats). The index is
// read on the first call, never when the tool list is built.
import { pipelineAnswer, skillAnswer, type Answer } from '../knowledge/answers.js';
import { KnowledgeIndexError, loadKnowledgeIndex } from '../knowledge/load.js';
import type { KnowledgeIndex } from '../knowledge/types.js';
import type { ToolEntry, ToolOutput } from './types.js';

const READ_ONLY = {
  origin: { kind: 'builtin' },
  annotations: { readOnlyHint: true },
  gate: { builtinReadOnly: true, trustAnnotations: true },
  callable: true,
} as const;

const MAX_LIMIT = 15;

function answer(run: (index: KnowledgeIndex) => Answer): ToolOutput {
  let index: KnowledgeIndex;
  try {
    index = loadKnowledgeIndex();
  } catch (err) {
    if (!(err instanceof KnowledgeIndexError)) throw err;
    return { isError: true, text: err.message, code: err.code };
  }
  const a = run(index);
  if (a.problem === undefined) return { isError: false, text: a.text };
  // Nothing found is an answer the model can act on; a malformed request is an error.
  const text = `${a.problem.message}${a.problem.hint ? ` (${a.problem.hint})` : ''}`;
  return a.problem.code === 'KN005' || a.problem.code === 'KN006' ? { isError: false, text } : { isError: true, text, code: a.problem.code };
}

const optionalString = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const limitOf = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isInteger(v) && v >= 1 ? Math.min(v, MAX_LIMIT) : fallback);

export function lookupTools(): ToolEntry[] {
  return [
    {
      name: 'lookup_skill',
      description:
        'Search the built-in bioinformatics skill library (offline) for a task, tool or analysis, e.g. "paired-end adapter trimming", "somatic SNV calling", "STAR". ' +
        'Returns ranked skills with domain, primary tool and why they matched, and says when the match is weak; read one with read_skill and the name "builtin/NAME".',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', description: 'what to do, in a few words; abbreviations such as DE, SV, CNV, WGS, scRNA-seq are understood' },
          limit: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, description: 'how many skills (default 5)' },
        },
        required: ['query'],
        additionalProperties: false,
      },
      ...READ_ONLY,
      invoke: async (args) => {
        const query = optionalString(args.query);
        if (query === undefined) return { isError: true, text: '"query" must be a non-empty string', code: 'TOOL003' };
        return answer((index) => skillAnswer(index, query, limitOf(args.limit, 5)));
      },
    },
    {
      name: 'lookup_pipeline',
      description:
        'Query the pipeline knowledge graph of analysis steps (drawn from nf-core and other public pipelines). ' +
        'action "transitions": what usually follows (and precedes) a step; "path": routes from one step to another as public pipelines run them (best practice first, one assay) with the data types on each edge; "stats": counts. ' +
        'Steps are named by node id, alias or tool (fastp, star, featurecounts, gatk-haplotypecaller).',
      inputSchema: {
        type: 'object',
        properties: {
          action: { type: 'string', enum: ['transitions', 'path', 'stats'], description: 'default: transitions when a step is given, else stats' },
          step: { type: 'string', description: 'for transitions: the step' },
          from: { type: 'string', description: 'for path: the upstream step' },
          to: { type: 'string', description: 'for path: the downstream step' },
          assay: { type: 'string', description: 'for path: keep to the pipelines of one assay (rna-seq, dna-variants, atac-seq, chip-seq, ...); default: the assay of the best route' },
          mixed: { type: 'boolean', description: 'for path: also list routes that join steps of different pipelines (may mix assays)' },
        },
        additionalProperties: false,
      },
      ...READ_ONLY,
      invoke: async (args) => {
        const step = optionalString(args.step) ?? optionalString(args.from);
        const action = optionalString(args.action) ?? (step !== undefined ? 'transitions' : 'stats');
        if (action === 'stats') return answer((index) => pipelineAnswer(index, { stats: true }));
        if (action === 'transitions') {
          if (step === undefined) return { isError: true, text: 'action "transitions" needs "step"', code: 'TOOL003' };
          return answer((index) => pipelineAnswer(index, { from: step }));
        }
        if (action === 'path') {
          const from = optionalString(args.from);
          const to = optionalString(args.to);
          if (from === undefined || to === undefined) return { isError: true, text: 'action "path" needs "from" and "to"', code: 'TOOL003' };
          const assay = optionalString(args.assay);
          return answer((index) => pipelineAnswer(index, { from, to, ...(assay !== undefined ? { assay } : {}), ...(args.mixed === true ? { mixed: true } : {}) }));
        }
        return { isError: true, text: `unknown action ${JSON.stringify(action)}: use transitions, path or stats`, code: 'TOOL003' };
      },
    },
  ];
}
