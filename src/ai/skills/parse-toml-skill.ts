// `<name>.skill.toml`: TOML types are exact (a version of 1.0 is a float, not a string).
import { parse, TomlError } from 'smol-toml';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import {
  checkDescription,
  checkName,
  isPlainRecord,
  isStringArray,
  typeName,
  unknownKeyFinding,
} from './field-checks.js';
import { indexKeyPositions, type KeyPositions } from '../../workflow/positions/index.js';
import { normalisePromptText } from './prompt-text.js';
import type { McpSettings, ParsedSkill, SkillType } from './types.js';

export const TOML_KEYS = ['name', 'version', 'description', 'skill_type', 'author', 'domains', 'prompt_additions', 'requires', 'entry', 'mcp'] as const;
export const MCP_KEYS = ['headers', 'connect_timeout_ms', 'call_timeout_ms', 'trust_annotations'] as const;

/** Parse and validate a TOML skill's text (already decoded, LF newlines). `stem` is the file name minus `.skill.toml`. */
export function parseTomlSkill(text: string, file: string, stem: string): ParsedSkill {
  const findings: Diagnostic[] = [];
  // Positions come from the workflow loader's key-position index (scanned only if a finding asks).
  const positions = indexKeyPositions(text);
  const at = (...keyPath: string[]) => ({ file, ...(positions.locate(keyPath) ?? { line: 1, column: 1 }) });
  let doc: Record<string, unknown>;
  try {
    doc = parse(text, { unsafeKeyBehaviour: 'throw' }) as Record<string, unknown>;
  } catch (err) {
    if (err instanceof TomlError) {
      const reason = err.message.split('\n')[0]!.replace(/^Invalid TOML document:\s*/, '');
      findings.push(diagnostic('SK007', `invalid TOML: ${reason}`, { file, line: err.line, column: err.column }));
    } else {
      findings.push(diagnostic('SK007', `invalid TOML: ${(err as Error).message}`, { file, line: 1, column: 1 }));
    }
    return { domains: [], findings };
  }

  findings.push(...checkName(doc.name, stem, () => at('name'), 'file name'));
  findings.push(...checkDescription(doc.description, () => at('description')));
  const version = doc.version;
  if (version === undefined) findings.push(diagnostic('SK003', 'missing required field `version` (a string, e.g. "1.0.0")', { file, line: 1, column: 1 }));
  else if (typeof version !== 'string')
    findings.push(diagnostic('SK004', `\`version\` must be a string, found ${typeName(version)}`, { ...at('version'), hint: `quote it: version = "${String(version)}"` }));

  let type: SkillType | undefined;
  const rawType = doc.skill_type;
  if (rawType === undefined) findings.push(diagnostic('SK003', 'missing required field `skill_type` ("knowledge" or "tool")', { file, line: 1, column: 1 }));
  else if (rawType === 'knowledge' || rawType === 'tool') type = rawType;
  else findings.push(diagnostic('SK017', `skill_type is ${JSON.stringify(rawType)}; it must be "knowledge" or "tool"`, at('skill_type')));

  const strings = (key: string): string[] | undefined => {
    const v = doc[key];
    if (v === undefined) return undefined;
    if (isStringArray(v)) return v;
    findings.push(diagnostic('SK004', `\`${key}\` must be an array of strings, found ${typeName(v)}`, at(key)));
    return undefined;
  };
  const string = (key: string): string | undefined => {
    const v = doc[key];
    if (v === undefined) return undefined;
    if (typeof v === 'string') return v;
    findings.push(diagnostic('SK004', `\`${key}\` must be a string, found ${typeName(v)}`, at(key)));
    return undefined;
  };

  const author = string('author');
  const entry = string('entry');
  const domains = strings('domains') ?? [];
  const additions = strings('prompt_additions');
  const requires = strings('requires');

  for (const key of Object.keys(doc)) {
    if (!(TOML_KEYS as readonly string[]).includes(key)) findings.push(unknownKeyFinding(key, TOML_KEYS, at(key), 'the skill file'));
  }

  const parsed: ParsedSkill = { domains: [...new Set(domains)], findings };
  if (typeof doc.name === 'string') parsed.declaredName = doc.name;
  if (type) parsed.type = type;
  if (typeof doc.description === 'string') parsed.description = doc.description;
  if (typeof version === 'string') parsed.version = version;
  if (author !== undefined) parsed.author = author;
  if (entry !== undefined) parsed.entry = entry;
  if (requires !== undefined) parsed.requires = requires;

  const mcp = readMcpTable(doc.mcp, file, positions, findings);
  if (type === 'tool') {
    const url = serverUrl(requires ?? [], file, at('requires'), findings);
    if (url) parsed.mcp = { url, headers: mcp.headers, trustAnnotations: mcp.trustAnnotations, ...mcp.timeouts };
  }
  if (type === 'knowledge' || type === undefined) {
    const prompt = normalisePromptText((additions ?? []).join('\n'));
    if (prompt) parsed.prompt = prompt;
    else if (type === 'knowledge') findings.push(diagnostic('SK022', 'knowledge skill has no prompt_additions: activating it adds nothing', { file, line: 1, column: 1 }));
  } else if (additions && additions.length > 0) {
    // Tool skills steer the model through their tools; their prompt text is still shown by `ai skills show`.
    parsed.prompt = normalisePromptText(additions.join('\n'));
  }
  return parsed;
}

interface McpTable {
  headers: Record<string, string>;
  trustAnnotations: boolean;
  timeouts: Pick<McpSettings, 'connectTimeoutMs' | 'callTimeoutMs'>;
}

function readMcpTable(value: unknown, file: string, positions: KeyPositions, findings: Diagnostic[]): McpTable {
  const out: McpTable = { headers: {}, trustAnnotations: true, timeouts: {} };
  if (value === undefined) return out;
  const at = (key?: string) => ({ file, ...(positions.locate(key === undefined ? ['mcp'] : ['mcp', key]) ?? { line: 1, column: 1 }) });
  if (!isPlainRecord(value)) {
    findings.push(diagnostic('SK004', `\`mcp\` must be a table, found ${typeName(value)}`, at()));
    return out;
  }
  for (const [key, v] of Object.entries(value)) {
    switch (key) {
      case 'headers':
        if (isPlainRecord(v) && Object.values(v).every((h) => typeof h === 'string')) out.headers = v as Record<string, string>;
        else findings.push(diagnostic('SK004', '`mcp.headers` must be a table of strings', at('headers')));
        break;
      case 'connect_timeout_ms':
      case 'call_timeout_ms':
        if (typeof v === 'number' && Number.isInteger(v) && v > 0) {
          if (key === 'connect_timeout_ms') out.timeouts.connectTimeoutMs = v;
          else out.timeouts.callTimeoutMs = v;
        } else findings.push(diagnostic('SK004', `\`mcp.${key}\` must be a positive integer (milliseconds), found ${typeName(v)}`, at(key)));
        break;
      case 'trust_annotations':
        if (typeof v === 'boolean') out.trustAnnotations = v;
        else findings.push(diagnostic('SK004', `\`mcp.trust_annotations\` must be true or false, found ${typeName(v)}`, at(key)));
        break;
      default:
        findings.push(unknownKeyFinding(key, MCP_KEYS, at(key), 'the [mcp] table'));
    }
  }
  return out;
}

/** The one MCP server URL of a tool skill (`mcp://` means `http://`), or undefined with a finding. */
function serverUrl(requires: string[], file: string, where: { file: string; line: number; column: number }, findings: Diagnostic[]): string | undefined {
  const urls = requires.filter((r) => /^(mcp|https?):\/\//i.test(r));
  if (urls.length === 0) {
    findings.push(diagnostic('SK016', 'tool skill needs one MCP server URL in `requires` (mcp://host:port/path or http(s)://)', where.line > 1 || requires.length > 0 ? where : { file, line: 1, column: 1 }));
    return undefined;
  }
  if (urls.length > 1) {
    findings.push(diagnostic('SK016', `tool skill names ${urls.length} servers in \`requires\`; a tool skill names exactly one`, where));
    return undefined;
  }
  const raw = urls[0]!.replace(/^mcp:\/\//i, 'http://');
  try {
    const url = new URL(raw);
    if (!url.hostname) throw new Error('no host');
    return url.toString();
  } catch {
    findings.push(diagnostic('SK016', `\`${urls[0]}\` is not a valid URL`, where));
    return undefined;
  }
}
