// The project an AI command works in, and its `.oxo-flow/ai.toml` (`[ai]` table: activation lists,
// extra skill paths, provider and model; never a key).
import { realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parse, type TomlError } from 'smol-toml';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { AI_COMMANDS, type AiTable } from '../workflow/model.js';
import { indexKeyPositions } from '../workflow/positions/index.js';
import { isPlainRecord, isStringArray, typeName } from './skills/field-checks.js';
import { nearestName } from '../diagnostics/nearest-name.js';
import { decodeText, readFileSafely } from '../fs/safe-read.js';

const AI_KEYS = ['enabled', 'skills', 'skill_paths', 'provider', 'model', 'base_url', 'max_rounds', ...AI_COMMANDS] as const;
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
  const where = (keyPath: string[]) => ({ file, ...(positions.locate(keyPath) ?? { line: 1, column: 1 }) });
  const at = (key: string) => where(['ai', key]);
  for (const key of Object.keys(doc)) {
    if (key !== 'ai') d.push(diagnostic('SK042', `unknown top-level key \`${key}\` in ai.toml; settings live in an [ai] table`, where([key])));
  }
  const ai = doc.ai;
  if (ai === undefined) return out;
  if (!isPlainRecord(ai)) {
    d.push(diagnostic('SK041', `\`ai\` must be a table, found ${typeName(ai)}`, where(['ai'])));
    return out;
  }
  const names = (key: string, value: unknown): string[] => {
    if (isStringArray(value)) return value;
    d.push(diagnostic('SK041', `\`${key}\` must be an array of strings, found ${typeName(value)}`, at(key)));
    return [];
  };
  const text1 = (key: string, value: unknown): string | undefined => {
    if (typeof value === 'string') return value;
    d.push(diagnostic('SK041', `\`${key}\` must be a string, found ${typeName(value)}`, at(key)));
    return undefined;
  };
  for (const [key, value] of Object.entries(ai)) {
    if (SECRET_KEYS.test(key)) {
      d.push(diagnostic('SK043', `\`${key}\` in ${file}: an API key does not belong in a project file (it would be committed with the project)`, at(key)));
      continue;
    }
    switch (key) {
      case 'enabled':
        if (typeof value === 'boolean') out.table.enabled = value;
        else d.push(diagnostic('SK041', `\`enabled\` must be true or false, found ${typeName(value)}`, at(key)));
        break;
      case 'skills':
        out.table.skills = names(key, value);
        break;
      case 'skill_paths':
        out.skillPaths = names(key, value).map((p) => path.resolve(projectDir, expandHome(p)));
        break;
      case 'provider': {
        const v = text1(key, value);
        if (v !== undefined) out.table.provider = v;
        break;
      }
      case 'model': {
        const v = text1(key, value);
        if (v !== undefined) out.table.model = v;
        break;
      }
      case 'base_url': {
        const v = text1(key, value);
        if (v !== undefined) out.baseUrl = v;
        break;
      }
      case 'max_rounds':
        if (typeof value === 'number' && Number.isInteger(value) && value > 0) out.table.maxRounds = value;
        else d.push(diagnostic('SK041', `\`max_rounds\` must be a positive integer, found ${typeName(value)}`, at(key)));
        break;
      default:
        if ((AI_COMMANDS as readonly string[]).includes(key)) readCommandTable(key, value, out, (sub) => where(sub === undefined ? ['ai', key] : ['ai', key, sub]));
        else {
          const near = nearestName(key, AI_KEYS);
          d.push(diagnostic('SK042', `unknown key \`${key}\` in [ai]${near ? `; did you mean \`${near}\`?` : ''}`, { ...at(key), hint: `known keys: ${AI_KEYS.join(', ')}` }));
        }
    }
  }
  return out;
}

/** `~` and `~/...` mean the home folder (as in a shell); `~user` is not expanded. */
function expandHome(p: string): string {
  if (p === '~') return os.homedir();
  if (p.startsWith('~/') || p.startsWith(`~${path.sep}`)) return path.join(os.homedir(), p.slice(2));
  return p;
}

function readCommandTable(command: string, value: unknown, out: ProjectAiConfig, at: (key?: string) => { file: string; line: number; column: number }): void {
  if (!isPlainRecord(value)) {
    out.diagnostics.push(diagnostic('SK041', `\`ai.${command}\` must be a table, found ${typeName(value)}`, at()));
    return;
  }
  for (const [key, v] of Object.entries(value)) {
    if (key === 'skills' && isStringArray(v)) out.table.commands[command] = { skills: v };
    else if (key === 'skills') out.diagnostics.push(diagnostic('SK041', `\`ai.${command}.skills\` must be an array of strings, found ${typeName(v)}`, at(key)));
    else out.diagnostics.push(diagnostic('SK042', `unknown key \`${key}\` in [ai.${command}] (only \`skills\`)`, at(key)));
  }
}
