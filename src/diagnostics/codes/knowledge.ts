import type { CodeInfo } from '../code-info.js';

const doc = 'docs/knowledge.md';

/** Built-in knowledge: the compiled index, skill lookup and the pipeline graph (KN001-KN019). */
export const knowledgeCodes = {
  KN001: { severity: 'error', title: 'the built-in knowledge index is missing or unreadable', hint: 'run `npm run build` in a source checkout, or reinstall oxo-flow', doc },
  KN002: { severity: 'error', title: 'the built-in knowledge index has another format version', hint: 'rebuild with `npm run build`, or reinstall oxo-flow', doc },
  KN003: { severity: 'error', title: 'no step of the pipeline graph has this name', hint: 'run `oxo-flow ai lookup pipeline --stats` and name a node id, an alias or a tool', doc },
  KN004: { severity: 'error', title: 'several steps of the pipeline graph run this tool', hint: 'name one of the listed node ids instead of the tool', doc },
  KN005: { severity: 'warning', title: 'no path between these steps in the pipeline graph', hint: 'check the direction (--from is upstream), or look at what follows with `ai lookup pipeline --from NODE`', doc },
  KN006: { severity: 'warning', title: 'no built-in skill matched the query', hint: 'try a tool name (fastp, STAR) or an analysis (variant calling, peak calling)', doc },
  KN007: { severity: 'error', title: 'the lookup query is empty or only common words', hint: 'give a few words, e.g. `oxo-flow ai lookup skill "adapter trimming"`', doc },
  KN008: { severity: 'error', title: 'pipeline lookup needs --from (and optionally --to), or --stats', hint: 'e.g. `oxo-flow ai lookup pipeline --from fastp --to featurecounts`', doc },
  KN009: { severity: 'error', title: 'lookup --limit is not a whole number in range', hint: 'give --limit a number from 1 to 50', doc },
  KN010: { severity: 'error', title: 'no pipeline of the graph serves this assay', hint: 'leave out --assay, or name one of the listed assays', doc },
} as const satisfies Record<string, CodeInfo>;
