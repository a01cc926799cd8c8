// S008: secret-looking literals, reported with their line. Two signals: a token with a well-known
// shape (AWS key id, OpenAI/GitHub/GitLab/Slack tokens, a PEM private key), or a key whose name says
// secret (password, api_key, token...) holding a non-empty literal. The word "password" inside a help
// text or a description is not a secret: only key names count. Values are never echoed back.
import { diagnostic } from '../../diagnostics/diagnostic.js';
import { LineIndex } from '../positions/index.js';
import { KeyPositions } from '../positions/index.js';
import type { LintContext } from './context.js';

const TOKEN_SHAPES: readonly { name: string; pattern: RegExp }[] = [
  { name: 'an AWS access key id', pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/ },
  { name: 'an API key (sk-…)', pattern: /\bsk-(?:proj-|ant-)?[A-Za-z0-9_-]{20,}/ },
  { name: 'a GitHub token', pattern: /\bgh[pousr]_[A-Za-z0-9]{30,}/ },
  { name: 'a GitLab token', pattern: /\bglpat-[A-Za-z0-9_-]{20,}/ },
  { name: 'a Slack token', pattern: /\bxox[abprs]-[A-Za-z0-9-]{10,}/ },
  { name: 'a private key', pattern: /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----/ },
];

/** `db_password = "hunter22"`, `api_key = 'abcd'` or a declaration's `default = "..."` on such a key. */
const SECRET_WORDS = String.raw`password|passwd|secret|api[_-]?key|access[_-]?token|auth[_-]?token|private[_-]?key|token`;
const SECRET_KEY = new RegExp(String.raw`^\s*"?([A-Za-z0-9_.-]*(?:${SECRET_WORDS})[A-Za-z0-9_-]*)"?\s*=\s*(.*)$`, 'i');
const ANY_SECRET_WORD = new RegExp(SECRET_WORDS, 'i');
const STRING_LITERAL = /^(?:\{[^}]*?\bdefault\s*=\s*)?("([^"\\]|\\.)*"|'[^']*')/;

function looksLikeReference(value: string): boolean {
  // Placeholders and environment references are how secrets should be passed: not findings.
  return /^\$\{?\w+\}?$/.test(value) || /^\{[\w.]+\}$/.test(value) || /^(?:env:|\$)/.test(value);
}

export function lintSecrets({ workflow: w, out }: LintContext): void {
  // One pass over the whole file first: a shape or key word absent from the file is absent from every
  // line, and most files have none, so the per-line scan usually never starts.
  const shapes = TOKEN_SHAPES.filter((t) => t.pattern.test(w.source));
  const keyWords = ANY_SECRET_WORD.test(w.source);
  if (shapes.length === 0 && !keyWords) return;
  const lines = w.positions instanceof KeyPositions ? w.positions.lines : new LineIndex(w.source);
  for (let n = 1; n <= lines.lineCount; n += 1) {
    const text = lines.lineText(n);
    if (text.trimStart().startsWith('#')) continue;
    const shape = shapes.find((t) => t.pattern.test(text));
    if (shape) {
      const column = text.search(shape.pattern) + 1;
      out.push(diagnostic('S008', `line ${n} contains what looks like ${shape.name}`, { file: w.file, line: n, column }));
      continue;
    }
    const m = keyWords ? SECRET_KEY.exec(text) : null;
    if (!m) continue;
    const literal = STRING_LITERAL.exec(m[2]!.trim());
    if (!literal) continue;
    const value = literal[1]!.slice(1, -1);
    if (value.length < 4 || looksLikeReference(value)) continue;
    out.push(
      diagnostic('S008', `"${m[1]}" on line ${n} holds a literal value that looks like a secret`, { file: w.file, line: n, column: text.indexOf(m[1]!) + 1 }),
    );
  }
}
