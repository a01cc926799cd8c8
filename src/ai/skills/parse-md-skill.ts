// `<name>/SKILL.md` (Agent Skills convention): YAML front matter, then the markdown body as prompt text.
// gray-matter parses the front matter. It is wrapped, for three things it does not do:
// - the opening and closing lines are checked first, by our own strict rules (exactly `---`):
//   gray-matter reads a first line `---js` as "run this block as JavaScript" and treats a missing
//   closing line as a front matter that runs to the end of the file; here both are findings with a
//   line (SK010, SK008), and gray-matter is only ever given a closed, YAML front matter;
// - discovery reads a file's first few KiB and stops at the closing line (frontMatterExtent, with the
//   bounded, link-safe read of src/fs/safe-read.ts), so gray-matter gets the front matter, not the body;
// - its engines are replaced: YAML is read with js-yaml's FAILSAFE schema (every scalar a string, no
//   tags that build objects, nothing that runs code), and every other engine (javascript, js, coffee,
//   json) refuses. Options are always passed, so gray-matter never caches a file's content (it caches
//   only calls without options): memory stays flat over thousands of skills.
import matter from 'gray-matter';
import yaml from 'js-yaml';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { isPlainRecord, typeName } from './field-checks.js';
import { skillFromFrontMatter } from './md-front-matter.js';
import { normalisePromptText } from './prompt-text.js';
import type { ParsedSkill } from './types.js';

interface YamlError extends Error {
  reason?: string;
  mark?: { line: number; column: number };
}

const refuse = () => {
  throw new Error('only YAML front matter is read; nothing is executed');
};
/** gray-matter's options: YAML only, through js-yaml's FAILSAFE schema. */
export const MATTER_OPTIONS = {
  language: 'yaml',
  engines: {
    yaml: (block: string): object => yaml.load(block, { schema: yaml.FAILSAFE_SCHEMA }) as object,
    javascript: refuse,
    js: refuse,
    coffee: refuse,
    json: refuse,
  },
};

const DASH = 0x2d;
const LF = 0x0a;

/**
 * How far into `bytes` (the start of a SKILL.md file) the front matter reaches: the offset just past
 * the closing line's newline; 'none' when the file does not open with `---` (nothing more is needed
 * to report that); undefined when the closing line has not been read yet.
 */
export function frontMatterExtent(buf: Buffer): number | 'none' | undefined {
  const start = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  for (let i = 0; i < 3; i++) {
    if (start + i >= buf.length) return undefined;
    if (buf[start + i] !== DASH) return 'none';
  }
  const firstEnd = buf.indexOf(LF, start);
  if (firstEnd === -1) return undefined;
  // A line after the first that starts with `---` closes the front matter (parseMdSkill checks it is exactly `---`).
  const close = buf.indexOf('\n---', firstEnd);
  if (close === -1) return undefined;
  const end = buf.indexOf(LF, close + 4);
  return end === -1 ? undefined : end + 1;
}

/**
 * Parse and validate SKILL.md text (decoded, BOM removed, LF newlines). `dirName` is its directory's
 * name. With `withBody` false the text may stop after the front matter and no prompt is set: the
 * body is read later, only for a skill that is activated.
 */
export function parseMdSkill(text: string, file: string, dirName: string, withBody = true): ParsedSkill {
  const findings: Diagnostic[] = [];
  const fail = (d: Diagnostic): ParsedSkill => ({ type: 'knowledge', domains: [], findings: [...findings, d] });
  // Lines are found by index, not split into an array: discovery parses hundreds of these.
  const firstEnd = lineEnd(text, 0);
  const first = text.slice(0, firstEnd);
  if (!first.startsWith('---')) return fail(diagnostic('SK008', 'SKILL.md must start with a front matter line `---`', { file, line: 1, column: 1 }));
  if (first.trimEnd() !== '---') {
    const language = first.slice(3).trim();
    if (/^[A-Za-z]/.test(language))
      return fail(diagnostic('SK010', `front matter opened as \`${first.trim()}\`: the "${language}" language is refused (only YAML is read; nothing is executed)`, { file, line: 1, column: 4 }));
    return fail(diagnostic('SK008', `the first line must be exactly \`---\`, found \`${first.trim()}\``, { file, line: 1, column: 1 }));
  }
  // The closing line: the first line after the opening one that starts with `---`.
  const closeStart = firstEnd < text.length ? text.indexOf('\n---', firstEnd) + 1 : 0;
  if (closeStart === 0) return fail(diagnostic('SK008', 'front matter is not closed: no line `---` after the opening one', { file, line: 1, column: 1 }));
  const closeEnd = lineEnd(text, closeStart);
  const closeLine = text.slice(closeStart, closeEnd);
  if (closeLine.trimEnd() !== '---')
    return fail(diagnostic('SK008', `front matter must be closed by a line that is exactly \`---\`, found \`${closeLine.trim()}\``, { file, line: lineNumberAt(text, closeStart), column: 1 }));

  const block = closeStart > firstEnd + 1 ? text.slice(firstEnd + 1, closeStart - 1) : '';
  let data: unknown;
  try {
    // Only the front matter (through the closing line): gray-matter copies what it is given.
    data = matter(text.slice(0, closeEnd), MATTER_OPTIONS).data;
  } catch (err) {
    const e = err as YamlError;
    // gray-matter hands js-yaml the text after the opening `---`, so js-yaml's 0-based line is the file's.
    if (e.mark) return fail(diagnostic('SK009', `invalid YAML in front matter: ${e.reason ?? e.message.split('\n')[0]}`, { file, line: e.mark.line + 1, column: e.mark.column + 1 }));
    return fail(diagnostic('SK009', `invalid YAML in front matter: ${e.message.split('\n')[0]}`, { file, line: 2, column: 1 }));
  }
  if (data === undefined || data === null) data = {};
  if (!isPlainRecord(data)) return fail(diagnostic('SK009', `front matter must be a mapping of fields, found ${typeName(data)}`, { file, line: 2, column: 1 }));

  const parsed = skillFromFrontMatter(data, block, file, dirName, findings);
  if (!withBody) return parsed;
  const prompt = normalisePromptText(closeEnd < text.length ? text.slice(closeEnd + 1) : '');
  if (prompt) parsed.prompt = prompt;
  else findings.push(diagnostic('SK022', 'SKILL.md has no body: activating it adds nothing', { file, line: lineNumberAt(text, closeStart), column: 1 }));
  return parsed;
}

/** The index of the newline that ends the line starting at `from`, or the text's length. */
function lineEnd(text: string, from: number): number {
  const end = text.indexOf('\n', from);
  return end === -1 ? text.length : end;
}

/** 1-based line number of the line that starts at `offset`. */
function lineNumberAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
