// `oxo-flow ai lookup skill "QUERY"` and `ai lookup pipeline --from X [--to Y]`: ranked built-in
// skills and the pipeline graph, from the index compiled at build time (offline, no provider).
import { diagnostic } from '../../diagnostics/diagnostic.js';
import { pipelineAnswer, skillAnswer, type Answer } from '../../ai/knowledge/answers.js';
import { KnowledgeIndexError, loadKnowledgeIndex } from '../../ai/knowledge/load.js';
import type { KnowledgeIndex } from '../../ai/knowledge/types.js';
import type { CliContext } from '../context.js';
import type { CommandResult } from '../result.js';

function withIndex(run: (index: KnowledgeIndex) => Answer): CommandResult {
  let index: KnowledgeIndex;
  try {
    index = loadKnowledgeIndex();
  } catch (err) {
    if (!(err instanceof KnowledgeIndexError)) throw err;
    return { outcome: 'failed', json: {}, diagnostics: [diagnostic(err.code, err.message)] };
  }
  const answer = run(index);
  const p = answer.problem;
  if (p !== undefined) {
    // Nothing found (KN005, KN006) exits 1; a step that is not there or not one step, or a
    // malformed request, is a usage error (exit 2).
    const outcome = p.code === 'KN005' || p.code === 'KN006' ? 'failed' : 'usage';
    return { outcome, json: answer.json, diagnostics: [diagnostic(p.code, p.message, p.hint !== undefined ? { hint: p.hint } : {})] };
  }
  return { outcome: 'ok', json: answer.json, stdout: `${answer.text}\n` };
}

const MAX_LIMIT = 50;

/** --limit as a number, or a usage result saying what is wrong with it. */
function limitOf(value: string | undefined, fallback: number): number | CommandResult {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (Number.isInteger(n) && n >= 1 && n <= MAX_LIMIT) return n;
  return { outcome: 'usage', json: {}, diagnostics: [diagnostic('KN009', `--limit ${JSON.stringify(value)} is not a whole number from 1 to ${MAX_LIMIT}`)] };
}

export async function lookupSkill(opts: { query: string[]; limit?: string }, _ctx: CliContext): Promise<CommandResult> {
  const limit = limitOf(opts.limit, 5);
  if (typeof limit !== 'number') return limit;
  return withIndex((index) => skillAnswer(index, opts.query.join(' '), limit));
}

export async function lookupPipeline(
  opts: { from?: string; to?: string; stats?: boolean; limit?: string; assay?: string; mixed?: boolean },
  _ctx: CliContext,
): Promise<CommandResult> {
  const limit = limitOf(opts.limit, 5);
  if (typeof limit !== 'number') return limit;
  return withIndex((index) =>
    pipelineAnswer(index, {
      ...(opts.from !== undefined ? { from: opts.from } : {}),
      ...(opts.to !== undefined ? { to: opts.to } : {}),
      ...(opts.assay !== undefined ? { assay: opts.assay } : {}),
      ...(opts.mixed === true ? { mixed: true } : {}),
      stats: opts.stats === true,
      limit,
    }),
  );
}
