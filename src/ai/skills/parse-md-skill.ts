// `<name>/SKILL.md` (Agent Skills convention): YAML front matter, then the markdown body as prompt text.
// Front matter is split by our own strict rules (opening line exactly `---`, closing line exactly
// `---`), so discovery can read a file's first few KiB and stop at the closing line (progressive
// disclosure: name and description first, the body only when the skill is activated). YAML is read
// with js-yaml's FAILSAFE schema: every scalar a string, no tags that build objects, nothing that runs
// code. (gray-matter was used here once, only to hand the block to js-yaml; it is gone.)
import yaml from 'js-yaml';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { isPlainRecord, typeName } from './field-checks.js';
import { skillFromFrontMatter } from './md-front-matter.js';
import { normalisePromptText } from './prompt-text.js';
import { parseSimpleYaml } from './simple-yaml.js';
import type { ParsedSkill } from './types.js';

interface YamlError extends Error {
  reason?: string;
  mark?: { line: number; column: number };
}

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
  // Nearly every front matter is a few `key: value` lines and a `metadata:` map: parseSimpleYaml reads
  // those (exactly as js-yaml would) and declines anything else, which js-yaml then reads.
  let data: unknown = parseSimpleYaml(block);
  if (data === undefined) {
    try {
      data = yaml.load(block, { schema: yaml.FAILSAFE_SCHEMA });
    } catch (err) {
      const e = err as YamlError;
      // js-yaml's 0-based line in the block is the file's 0-based line minus one (the opening `---`).
      if (e.mark) return fail(diagnostic('SK009', `invalid YAML in front matter: ${e.reason ?? e.message.split('\n')[0]}`, { file, line: e.mark.line + 2, column: e.mark.column + 1 }));
      return fail(diagnostic('SK009', `invalid YAML in front matter: ${e.message.split('\n')[0]}`, { file, line: 2, column: 1 }));
    }
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
