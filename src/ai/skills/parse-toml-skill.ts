// `<name>.skill.toml`: TOML types are exact (a version of 1.0 is a float, not a string).
import { parse, TomlError } from 'smol-toml';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { descriptionFindings, isPlainRecord, nameFindings } from './field-checks.js';
import { indexKeyPositions } from '../../workflow/positions/index.js';
import type { ShapePath } from '../../workflow/load/shape-check.js';
import { checkAgainstShape, inFileOrder, pathName } from '../config-check.js';
import { SKILL_TOML_SHAPE } from '../config-shapes.generated.js';
import { normalisePromptText } from './prompt-text.js';
import type { OAuthGrant } from '../mcp/oauth.js';
import type { McpSettings, ParsedSkill, SkillType, TokenEndpointAuthMethod } from './types.js';

/** Parse and validate a TOML skill's text (already decoded, LF newlines). `stem` is the file name minus `.skill.toml`. */
export function parseTomlSkill(text: string, file: string, stem: string): ParsedSkill {
  const findings: Diagnostic[] = [];
  // Positions come from the workflow loader's key-position index (scanned only if a finding asks).
  const positions = indexKeyPositions(text);
  const at = (keyPath: ShapePath) => ({ file, ...(positions.locate(keyPath) ?? { line: 1, column: 1 }) });
  /** The value as written (1.0 stays 1.0, where the parsed number is 1). */
  const rawValue = (keyPath: ShapePath): string | undefined => {
    const pos = positions.locateValue(keyPath);
    if (pos === undefined) return undefined;
    const start = positions.lines.offset(pos);
    const end = text.indexOf('\n', start);
    return text.slice(start, end === -1 ? undefined : end).replace(/#.*$/, '').trim() || undefined;
  };
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

  // Keys and types come from the shape compiled from the zod schema (config-schemas.ts).
  const check = checkAgainstShape(SKILL_TOML_SHAPE, doc, () => ({
    codes: { type: 'SK004', unknown: 'SK006', missing: 'SK003', choice: 'SK017' },
    locate: at,
    table: 'a table',
    container: (p) => (p.length === 0 ? 'the skill file' : `the [${pathName(p)}] table`),
    hint: (f) => {
      if (f.path.length !== 1 || f.path[0] !== 'version') return undefined;
      if (f.kind === 'missing') return 'add version = "1.0.0"';
      return f.kind === 'type' ? `quote it: version = "${rawValue(['version']) ?? String(f.value)}"` : undefined;
    },
  }));
  // The values to use: all of them when the shape check found nothing, else those it did not report.
  let ok = doc;
  if (check.diagnostics.length > 0) {
    findings.push(...check.diagnostics);
    ok = Object.fromEntries(Object.entries(doc).filter(([key]) => check.usable([key])));
  }

  // What the schema cannot say: the name rule, the description's length, the server URL, an empty prompt.
  const name = ok.name as string | undefined;
  if (name !== undefined) findings.push(...nameFindings(name, stem, () => at(['name']), 'file name'));
  const description = ok.description as string | undefined;
  if (description !== undefined) findings.push(...descriptionFindings(description, () => at(['description'])));
  const type = ok.skill_type as SkillType | undefined;
  const version = ok.version as string | undefined;
  const author = ok.author as string | undefined;
  const entry = ok.entry as string | undefined;
  const domains = (ok.domains as string[] | undefined) ?? [];
  const additions = ok.prompt_additions as string[] | undefined;
  const requires = ok.requires as string[] | undefined;

  const parsed: ParsedSkill = { domains: [...new Set(domains)], findings };
  if (name !== undefined) parsed.declaredName = name;
  if (type) parsed.type = type;
  if (description !== undefined) parsed.description = description;
  if (version !== undefined) parsed.version = version;
  if (author !== undefined) parsed.author = author;
  if (entry !== undefined) parsed.entry = entry;
  if (requires !== undefined) parsed.requires = requires;

  const mcp = mcpTable(doc.mcp, check.usable);
  if (type === 'tool') {
    const url = serverUrl(requires ?? [], file, at(['requires']), findings);
    if (url) parsed.mcp = { url, headers: mcp.headers, trustAnnotations: mcp.trustAnnotations, ...mcp.timeouts, ...mcp.filters };
  }
  if (type === 'knowledge' || type === undefined) {
    const prompt = normalisePromptText((additions ?? []).join('\n'));
    if (prompt) parsed.prompt = prompt;
    else if (type === 'knowledge') findings.push(diagnostic('SK022', 'knowledge skill has no prompt_additions: activating it adds nothing', { file, line: 1, column: 1 }));
  } else if (additions && additions.length > 0) {
    // Tool skills steer the model through their tools; their prompt text is still shown by `ai skills show`.
    parsed.prompt = normalisePromptText(additions.join('\n'));
  }
  parsed.findings = inFileOrder(findings);
  return parsed;
}

interface McpTable {
  headers: Record<string, string>;
  trustAnnotations: boolean;
  timeouts: Pick<McpSettings, 'connectTimeoutMs' | 'callTimeoutMs'>;
  filters: Pick<McpSettings, 'allowTools' | 'denyTools' | 'oauth'>;
}

/** The [mcp] table's usable values (wrong ones were reported by the shape check). */
function mcpTable(value: unknown, usable: (path: ShapePath) => boolean): McpTable {
  const out: McpTable = { headers: {}, trustAnnotations: true, timeouts: {}, filters: {} };
  if (!isPlainRecord(value)) return out;
  const use = (key: string) => value[key] !== undefined && usable(['mcp', key]);
  if (use('headers')) out.headers = value.headers as Record<string, string>;
  if (use('connect_timeout_ms')) out.timeouts.connectTimeoutMs = value.connect_timeout_ms as number;
  if (use('call_timeout_ms')) out.timeouts.callTimeoutMs = value.call_timeout_ms as number;
  if (use('trust_annotations')) out.trustAnnotations = value.trust_annotations as boolean;
  if (use('allow_tools')) out.filters.allowTools = value.allow_tools as string[];
  if (use('deny_tools')) out.filters.denyTools = value.deny_tools as string[];
  if (use('oauth') && isPlainRecord(value.oauth)) {
    const o = value.oauth;
    out.filters.oauth = {
      ...(typeof o.client_id === 'string' ? { clientId: o.client_id } : {}),
      ...(typeof o.client_secret_env === 'string' ? { clientSecretEnv: o.client_secret_env } : {}),
      ...(typeof o.private_key_file === 'string' ? { privateKeyFile: o.private_key_file } : {}),
      ...(typeof o.private_key_env === 'string' ? { privateKeyEnv: o.private_key_env } : {}),
      ...(typeof o.token_endpoint_auth_method === 'string' ? { tokenEndpointAuthMethod: o.token_endpoint_auth_method as TokenEndpointAuthMethod } : {}),
      ...(typeof o.scope === 'string' ? { scope: o.scope } : {}),
      ...(typeof o.grant === 'string' ? { grant: o.grant as OAuthGrant } : {}),
      ...(typeof o.assertion_env === 'string' ? { assertionEnv: o.assertion_env } : {}),
      ...(typeof o.assertion_file === 'string' ? { assertionFile: o.assertion_file } : {}),
      ...(typeof o.idp_token_endpoint === 'string' ? { idpTokenEndpoint: o.idp_token_endpoint } : {}),
      ...(typeof o.idp_client_id === 'string' ? { idpClientId: o.idp_client_id } : {}),
      ...(typeof o.idp_client_secret_env === 'string' ? { idpClientSecretEnv: o.idp_client_secret_env } : {}),
      ...(typeof o.id_token_env === 'string' ? { idTokenEnv: o.id_token_env } : {}),
      ...(typeof o.id_token_file === 'string' ? { idTokenFile: o.id_token_file } : {}),
      ...(typeof o.dpop === 'boolean' ? { dpop: o.dpop } : {}),
    };
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
