// The project an AI command works in, and its `.oxo-flow/ai.toml` (`[ai]` table: activation lists,
// extra skill paths, provider and model; never a key). Keys and types are checked against the shape
// compiled from the zod schema in config-schemas.ts; `~`, paths and the secret refusal are done here.
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, type TomlError } from 'smol-toml';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { AI_COMMANDS, type AiTable } from '../workflow/model.js';
import { indexKeyPositions } from '../workflow/positions/index.js';
import { isPlainRecord } from './skills/field-checks.js';
import type { ShapePath } from '../workflow/load/shape-check.js';
import { checkAgainstShape, inFileOrder, pathName } from './config-check.js';
import { AI_TOML_SHAPE } from './config-shapes.generated.js';
import { decodeText, readFileSafely } from '../fs/safe-read.js';

const SECRET_KEYS = /^(api[_-]?key|key|token|secret|password|authorization)$/i;
const AI_TOML_CAP = 1024 * 1024;

export interface ProjectAiConfig {
  /** `<project>/.oxo-flow/ai.toml`. */
  file: string;
  exists: boolean;
  table: AiTable;
  /** `skill_paths`, resolved against the project directory, `~` expanded (globs are expanded by discovery). */
  skillPaths: string[];
  baseUrl?: string;
  diagnostics: Diagnostic[];
}

/** `--project` wins; else the workflow's directory; else the current directory. */
export function resolveProjectDir(input: { cwd: string; project?: string; workflowPath?: string }): string {
  if (input.project !== undefined) return path.resolve(input.cwd, input.project);
  if (input.workflowPath !== undefined) return path.dirname(path.resolve(input.cwd, input.workflowPath));
  return path.resolve(input.cwd);
}

export function aiTomlPath(projectDir: string): string {
  return path.join(projectDir, '.oxo-flow', 'ai.toml');
}

export function readProjectAiConfig(projectDir: string): ProjectAiConfig {
  const file = aiTomlPath(projectDir);
  const empty: ProjectAiConfig = { file, exists: false, table: { skills: [], commands: {} }, skillPaths: [], diagnostics: [] };
  let dirReal: string;
  try {
    dirReal = realpathSync(path.dirname(file));
  } catch {
    return empty;
  }
  const read = readFileSafely(path.join(dirReal, 'ai.toml'), dirReal, AI_TOML_CAP);
  if (!read.ok) {
    if (read.reason === 'missing') return empty;
    return { ...empty, exists: true, diagnostics: [diagnostic('SK044', `cannot read ${file}: ${read.detail}`, { file })] };
  }
  const decoded = decodeText(read.bytes);
  if (!decoded.ok) return { ...empty, exists: true, diagnostics: [diagnostic('SK044', `${file} is not valid UTF-8 (byte ${decoded.offset})`, { file })] };
  return parseAiToml(decoded.text, file, projectDir);
}

/** Parse ai.toml text. Exported for tests and for `ai status` to explain where settings came from. */
export function parseAiToml(text: string, file: string, projectDir: string): ProjectAiConfig {
  const out: ProjectAiConfig = { file, exists: true, table: { skills: [], commands: {} }, skillPaths: [], diagnostics: [] };
  const d = out.diagnostics;
  let doc: Record<string, unknown>;
  try {
    doc = parse(text, { unsafeKeyBehaviour: 'throw' }) as Record<string, unknown>;
  } catch (err) {
    const e = err as TomlError;
    const reason = (e.message ?? String(err)).split('\n')[0]!.replace(/^Invalid TOML document:\s*/, '');
    d.push(diagnostic('SK040', `invalid TOML: ${reason}`, { file, line: e.line ?? 1, column: e.column ?? 1 }));
    return out;
  }
  // Positions come from the workflow loader's key-position index (scanned only if a finding asks).
  const positions = indexKeyPositions(text);
  const where = (keyPath: ShapePath) => ({ file, ...(positions.locate(keyPath) ?? { line: 1, column: 1 }) });
  // A key-like name is refused before the shape check (which would only call it unknown), and its value is never kept.
  const secrets: Diagnostic[] = [];
  let data = doc;
  if (isPlainRecord(doc.ai)) {
    const kept: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(doc.ai)) {
      if (SECRET_KEYS.test(key))
        secrets.push(diagnostic('SK043', `\`${key}\` in ${file}: an API key does not belong in a project file (it would be committed with the project)`, where(['ai', key])));
      else kept[key] = value;
    }
    data = { ...doc, ai: kept };
  }
  const check = checkAgainstShape(AI_TOML_SHAPE, data, () => ({
    codes: { type: 'SK041', unknown: 'SK042', missing: 'SK041' },
    locate: where,
    table: 'a table',
    container: (p) => (p.length === 0 ? 'ai.toml' : `[${pathName(p)}]`),
    hint: (f) => (f.kind === 'unknown' && f.path.length === 1 ? 'settings live in an [ai] table' : undefined),
  }));
  d.push(...inFileOrder([...secrets, ...check.diagnostics]));

  // The shape is checked; what is left is taking the usable values (a wrong one is skipped, reported above).
  const ai = data.ai;
  if (!isPlainRecord(ai)) return out;
  const usable = (...keyPath: string[]) => valueAt(ai, keyPath) !== undefined && check.usable(['ai', ...keyPath]);
  if (usable('enabled')) out.table.enabled = ai.enabled as boolean;
  if (usable('skills')) out.table.skills = ai.skills as string[];
  if (usable('skill_paths')) out.skillPaths = (ai.skill_paths as string[]).map((p) => path.resolve(projectDir, expandHome(p)));
  if (usable('provider')) out.table.provider = ai.provider as string;
  if (usable('model')) out.table.model = ai.model as string;
  if (usable('base_url')) out.baseUrl = ai.base_url as string;
  if (usable('max_rounds')) out.table.maxRounds = ai.max_rounds as number;
  for (const command of AI_COMMANDS) {
    if (usable(command, 'skills')) out.table.commands[command] = { skills: valueAt(ai, [command, 'skills']) as string[] };
  }
  return out;
}

function valueAt(data: Record<string, unknown>, keyPath: string[]): unknown {
  let cur: unknown = data;
  for (const key of keyPath) cur = isPlainRecord(cur) ? cur[key] : undefined;
  return cur;
}

/** `~` and `~/...` mean the home folder (as in a shell); `~user` is not expanded. */
function expandHome(p: string): string {
  if (p === '~') return os.homedir();
  if (p.startsWith('~/') || p.startsWith(`~${path.sep}`)) return path.join(os.homedir(), p.slice(2));
  return p;
}
