// Which part of a model's answer is the workflow. Real answers mix prose, a bash block of how to run
// it, a Snakefile the model remembered, and the TOML: the block chosen is the one that parses as a
// workflow, not merely the first fence. A TOML block without [workflow] is still a draft (the
// validator then says E025, which the model can fix); only an answer with no TOML at all is "no
// workflow".
import { parse } from 'smol-toml';

export type Extracted =
  /** A draft to validate: the text of the chosen block (ends with one newline). */
  | { kind: 'draft'; toml: string }
  /** Nothing in the answer is TOML. */
  | { kind: 'none' };

interface Block {
  lang: string;
  text: string;
}

function fencedBlocks(text: string): Block[] {
  return [...text.matchAll(/```[ \t]*([A-Za-z0-9_+-]*)[^\n]*\r?\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1]!.toLowerCase(), text: m[2]! }));
}

function tomlTable(text: string): Record<string, unknown> | undefined {
  try {
    return parse(text) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

const isTable = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
const finish = (t: string) => ({ kind: 'draft' as const, toml: `${t.replace(/\s+$/, '')}\n` });

/**
 * The draft in an answer, by preference (the last of each kind wins: models repeat a block after
 * fixing it): a block that parses with a [workflow] table; one that parses with [[rules]]; a block
 * labelled toml/oxoflow or holding `[workflow]`/`[[rules]]` lines, even when it does not parse (the
 * validator's parse error is the useful feedback); with no fence at all, the answer from its first
 * table header on, when it holds a `[workflow]` or `[[rules]]` line.
 */
export function extractWorkflowToml(text: string): Extracted {
  const blocks = fencedBlocks(text);
  if (blocks.length === 0) {
    if (!/^\s*(\[workflow\]|\[\[rules\]\])/m.test(text)) return { kind: 'none' };
    // Prose before the first table header ("Here is the workflow:") is not part of it.
    const start = text.search(/^[ \t]*\[/m);
    return finish(text.slice(start).trim());
  }
  const parsed = blocks.map((b) => ({ block: b, table: tomlTable(b.text) }));
  const pick = (ok: (p: (typeof parsed)[number]) => boolean) => parsed.filter(ok).at(-1)?.block;
  const chosen =
    pick((p) => p.table !== undefined && isTable(p.table.workflow)) ??
    pick((p) => p.table !== undefined && Array.isArray(p.table.rules)) ??
    pick((p) => p.block.lang === 'toml' || p.block.lang === 'oxoflow' || /^\s*(\[workflow\]|\[\[rules\]\])/m.test(p.block.text));
  return chosen !== undefined ? finish(chosen.text) : { kind: 'none' };
}
