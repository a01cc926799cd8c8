// `<name>/SKILL.md` (Agent Skills convention): YAML front matter, then the markdown body as prompt text.
// Front matter is split by our own strict rules first (opening line exactly `---`, closing line
// exactly `---`), so gray-matter only ever sees a plain YAML block; its JavaScript and other engines
// are replaced by ones that refuse, and YAML is read with js-yaml's FAILSAFE schema (every scalar
// a string, no tags that build objects, nothing that runs code).
import matter from 'gray-matter';
import yaml from 'js-yaml';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { checkDescription, checkName, isPlainRecord, isStringArray, lineOfKey, typeName, unknownKeyFinding } from './field-checks.js';
import { normalisePromptText } from './prompt-text.js';
import type { ParsedSkill } from './types.js';

/** Agent Skills' six fields, plus the optional fields of this project (version, domains, author, built-in metadata). */
export const MD_KEYS = ['name', 'description', 'license', 'compatibility', 'metadata', 'allowed-tools', 'version', 'domains', 'domain', 'author', 'primary_tool'] as const;

const COMPATIBILITY_MAX = 500;

interface YamlError extends Error {
  reason?: string;
  mark?: { line: number; column: number };
}

const refuse = (language: string) => () => {
  throw new Error(`front matter language "${language}" is refused: only YAML is read`);
};
// gray-matter's type says object; a scalar or empty document is caught by isPlainRecord below.
const ENGINES: Record<string, { parse: (text: string) => object }> = {
  yaml: { parse: (text: string) => yaml.load(text, { schema: yaml.FAILSAFE_SCHEMA }) as object },
};
for (const name of ['js', 'javascript', 'json', 'coffee', 'coffeescript', 'cson', 'toml']) ENGINES[name] = { parse: refuse(name) };

/** Parse and validate SKILL.md text (decoded, BOM removed, LF newlines). `dirName` is its directory's name. */
export function parseMdSkill(text: string, file: string, dirName: string): ParsedSkill {
  const findings: Diagnostic[] = [];
  const fail = (d: Diagnostic): ParsedSkill => ({ type: 'knowledge', domains: [], findings: [...findings, d] });
  const lines = text.split('\n');
  const first = lines[0] ?? '';
  if (!first.startsWith('---')) return fail(diagnostic('SK008', 'SKILL.md must start with a front matter line `---`', { file, line: 1, column: 1 }));
  if (first.trimEnd() !== '---') {
    const language = first.slice(3).trim();
    if (/^[A-Za-z]/.test(language))
      return fail(diagnostic('SK010', `front matter opened as \`${first.trim()}\`: the "${language}" language is refused (only YAML is read; nothing is executed)`, { file, line: 1, column: 4 }));
    return fail(diagnostic('SK008', `the first line must be exactly \`---\`, found \`${first.trim()}\``, { file, line: 1, column: 1 }));
  }
  const close = lines.findIndex((l, i) => i > 0 && l.startsWith('---'));
  if (close === -1) return fail(diagnostic('SK008', 'front matter is not closed: no line `---` after the opening one', { file, line: 1, column: 1 }));
  if (lines[close]!.trimEnd() !== '---')
    return fail(diagnostic('SK008', `front matter must be closed by a line that is exactly \`---\`, found \`${lines[close]!.trim()}\``, { file, line: close + 1, column: 1 }));

  // gray-matter sees the front matter block alone (the body can be long and it would copy it); the
  // body is everything after the closing line.
  const body = lines.slice(close + 1).join('\n');
  let data: unknown;
  try {
    data = matter(lines.slice(0, close + 1).join('\n'), { language: 'yaml', engines: ENGINES }).data;
  } catch (err) {
    const e = err as YamlError;
    if (e.mark) {
      // js-yaml counts from the newline after the opening `---`, so its 0-based line is the file's 1-based line.
      return fail(diagnostic('SK009', `invalid YAML in front matter: ${e.reason ?? e.message.split('\n')[0]}`, { file, line: e.mark.line + 1, column: e.mark.column + 1 }));
    }
    return fail(diagnostic('SK010', `front matter refused: ${e.message}`, { file, line: 1, column: 1 }));
  }
  if (!isPlainRecord(data)) return fail(diagnostic('SK009', `front matter must be a mapping of fields, found ${typeName(data)}`, { file, line: 2, column: 1 }));

  const at = (key: string) => ({ file, line: lineOfKey(lines.slice(0, close).join('\n'), key, 'yaml') ?? 2, column: 1 });
  findings.push(...checkName(data.name, dirName, () => at('name'), 'directory name'));
  findings.push(...checkDescription(data.description, () => at('description')));

  const parsed: ParsedSkill = { type: 'knowledge', domains: [], findings };
  if (typeof data.description === 'string') parsed.description = data.description;
  const optionalString = (key: string): string | undefined => {
    const v = data[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string') return v;
    findings.push(diagnostic('SK004', `\`${key}\` must be a string, found ${typeName(v)}`, at(key)));
    return undefined;
  };
  const version = optionalString('version');
  if (version !== undefined) parsed.version = version;
  const author = optionalString('author');
  if (author !== undefined) parsed.author = author;
  const license = optionalString('license');
  if (license !== undefined) parsed.license = license;
  const allowedTools = optionalString('allowed-tools');
  if (allowedTools !== undefined) parsed.allowedTools = allowedTools;
  const primaryTool = optionalString('primary_tool');
  if (primaryTool !== undefined) parsed.primaryTool = primaryTool;
  const compatibility = optionalString('compatibility');
  if (compatibility !== undefined) {
    if (compatibility.length === 0 || compatibility.length > COMPATIBILITY_MAX)
      findings.push(diagnostic('SK005', `\`compatibility\` is ${compatibility.length} characters long (1 to ${COMPATIBILITY_MAX})`, at('compatibility')));
    else parsed.compatibility = compatibility;
  }
  if (data.metadata !== undefined && data.metadata !== null) {
    if (isPlainRecord(data.metadata) && Object.values(data.metadata).every((v) => typeof v === 'string')) parsed.metadata = data.metadata as Record<string, string>;
    else findings.push(diagnostic('SK004', '`metadata` must be a mapping of strings to strings', at('metadata')));
  }
  const domains: string[] = [];
  for (const key of ['domain', 'domains'] as const) {
    const v = data[key];
    if (v === undefined || v === null) continue;
    if (typeof v === 'string') domains.push(...v.split(/[,\s]+/).filter(Boolean));
    else if (isStringArray(v)) domains.push(...v);
    else findings.push(diagnostic('SK004', `\`${key}\` must be a string or a list of strings, found ${typeName(v)}`, at(key)));
  }
  parsed.domains = [...new Set(domains)];
  for (const key of Object.keys(data)) {
    if (!(MD_KEYS as readonly string[]).includes(key)) findings.push(unknownKeyFinding(key, MD_KEYS, at(key), 'the front matter'));
  }
  const prompt = normalisePromptText(body);
  if (prompt) parsed.prompt = prompt;
  else findings.push(diagnostic('SK022', 'SKILL.md has no body: activating it adds nothing', { file, line: close + 1, column: 1 }));
  return parsed;
}
