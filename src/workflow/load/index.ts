// Loading is a pipeline: text → TOML (E000) → schema (E020/E024/E025) → normalised Workflow
// (E004/E023/E024). `loadWorkflow` is pure; `readWorkflowFile` is the one I/O edge.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, TomlError } from 'smol-toml';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Workflow } from '../model.js';
import { indexKeyPositions, LineIndex } from '../positions/index.js';
import type { WorkflowFile } from '../schema.js';
import { workflowSchemas } from '../schema-runtime.js';
import { WORKFLOW_SHAPE } from '../schema-shape.generated.js';
import { applyConfigSettings, type ConfigSettings } from './config-values.js';
import { normaliseWorkflow, type ReadSheet } from './normalise.js';
import { addSheets } from './sheets.js';
import { issuesToDiagnostics } from './schema-issues.js';
import { conformsToShape } from './shape-check.js';

export { parseMemory } from './memory.js';
export { nearestName } from '../../diagnostics/nearest-name.js';

export interface LoadResult {
  workflow?: Workflow;
  diagnostics: Diagnostic[];
}

/** Inline tables and arrays nest at most this deep; real workflows use three or four levels. */
const MAX_TOML_DEPTH = 32;

function parseToml(text: string, file: string): { data?: unknown; diagnostic?: Diagnostic } {
  try {
    const data = parse(text, { maxDepth: MAX_TOML_DEPTH, unsafeKeyBehaviour: 'throw' });
    // smol-toml bounds inline tables and arrays, not dotted keys (`a.b.c… = 1`, `[a.b.c…]`): a
    // 2,000-level key would overflow the stack of every later step, so it stops here, at its line.
    if (tooDeep(data)) {
      const line = deepKeyLine(text);
      return { diagnostic: diagnostic('E000', `TOML nesting too deep: a key nests more than ${MAX_TOML_DEPTH} levels`, { file, line, column: 1, hint: 'real workflows nest three or four levels; flatten the key' }) };
    }
    return { data };
  } catch (err) {
    if (err instanceof TomlError) {
      // smol-toml's message repeats a code excerpt after the first line; we draw our own caret.
      const first = err.message.split('\n')[0]!.replace(/^Invalid TOML document:\s*/i, '');
      return { diagnostic: diagnostic('E000', `TOML syntax error: ${first}`, { file, line: err.line, column: err.column }) };
    }
    const message = err instanceof Error ? err.message : String(err);
    if (err instanceof RangeError) {
      return { diagnostic: diagnostic('E000', `TOML nesting too deep: ${message}`, { file, line: 1, column: 1 }) };
    }
    throw err;
  }
}

/** Whether tables nest deeper than MAX_TOML_DEPTH (walked without recursion, so it cannot overflow). */
function tooDeep(data: unknown): boolean {
  const stack: [unknown, number][] = [[data, 0]];
  while (stack.length > 0) {
    const [value, depth] = stack.pop()!;
    if (value === null || typeof value !== 'object') continue;
    if (depth > MAX_TOML_DEPTH) return true;
    for (const child of Object.values(value)) if (child !== null && typeof child === 'object') stack.push([child, depth + 1]);
  }
  return false;
}

/** The first line whose key or table header has more than MAX_TOML_DEPTH dotted parts. */
function deepKeyLine(text: string): number {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const key = /^\s*\[*([^=\]]*)/.exec(lines[i]!)?.[1] ?? '';
    if (key.split('.').length > MAX_TOML_DEPTH) return i + 1;
  }
  return 1;
}

type ShapeCheck =
  | { ok: true; data: WorkflowFile }
  | { ok: false; issues: Parameters<typeof issuesToDiagnostics>[0]; schema: Parameters<typeof issuesToDiagnostics>[1]['schema'] };

/** The compiled shape answers for well-formed files; zod (loaded only then) explains the others. */
function checkShape(data: unknown): ShapeCheck {
  if (conformsToShape(WORKFLOW_SHAPE, data)) return { ok: true, data: data as WorkflowFile };
  const schema = workflowSchemas().workflowFileSchema;
  const checked = schema.safeParse(data, { reportInput: true });
  return checked.success ? { ok: true, data: checked.data } : { ok: false, issues: checked.error.issues, schema };
}

export interface LoadOptions {
  /** The project directory (data, results, sheets, state); default: the workflow file's directory. */
  dir?: string;
  /** The pipeline directory (the workflow file's); default: `dir`. */
  pipelineDir?: string;
  /** Reads sample sheets (sample_groups_file, pairs_file, samples_file); without it a named sheet is E039. */
  readSheet?: ReadSheet;
  /** `--configfile` values and KEY=VALUE words: the effective config, before sheets are read. */
  config?: ConfigSettings;
}

/**
 * Load workflow text. Pure: `file` is used for diagnostics and, with `dir`, to resolve relative paths.
 * Line endings are normalised first: a file saved with CRLF must not put `\r` into commands.
 */
export function loadWorkflow(source: string, file: string, options: LoadOptions = {}): LoadResult {
  const text = source.includes('\r') ? source.replace(/\r\n/g, '\n') : source;
  const parsed = parseToml(text, file);
  if (parsed.diagnostic) return { diagnostics: [parsed.diagnostic] };
  const lines = new LineIndex(text);
  const positions = indexKeyPositions(text, lines);
  const checked = checkShape(parsed.data);
  const source2 = { file, text, positions, ...(options.dir !== undefined ? { dir: options.dir } : {}), ...(options.pipelineDir !== undefined ? { pipelineDir: options.pipelineDir } : {}) };
  if (!checked.ok) {
    const diagnostics = issuesToDiagnostics(checked.issues, { file, data: parsed.data, schema: checked.schema, positions });
    // Keep going without the keys in error, so one wrong type does not hide the file's other
    // problems (validate reports every independent problem in one run). The workflow is returned
    // with the errors: nothing plans or runs a workflow that has any.
    const pruned = withoutIssues(parsed.data, checked.issues);
    if (pruned === undefined || !conformsToShape(WORKFLOW_SHAPE, pruned)) return { diagnostics };
    const rest = completed(normaliseWorkflow(pruned as WorkflowFile, source2), positions, options);
    if (rest.usage) return { diagnostics: rest.diagnostics };
    return { workflow: rest.workflow, diagnostics: [...diagnostics, ...rest.diagnostics] };
  }
  const done = completed(normaliseWorkflow(checked.data, source2), positions, options);
  return done.usage ? { diagnostics: done.diagnostics } : { workflow: done.workflow, diagnostics: done.diagnostics };
}

/**
 * The normalised workflow with the command's config values, then its sample sheets (whose paths
 * may use those values). A config value the command gives that does not fit is a usage error
 * (`usage`): nothing else is reported, as for a mistyped option.
 */
function completed(
  normalised: { workflow: Workflow; diagnostics: Diagnostic[] },
  positions: ReturnType<typeof indexKeyPositions>,
  options: LoadOptions,
): { workflow: Workflow; diagnostics: Diagnostic[]; usage: boolean } {
  const { workflow } = normalised;
  if (options.config !== undefined) {
    const applied = applyConfigSettings(workflow.config, options.config);
    if (applied.diagnostics.length > 0) return { workflow, diagnostics: applied.diagnostics, usage: true };
    workflow.config = applied.config;
  }
  const sheets = addSheets(workflow, { file: workflow.file, positions, ...(options.readSheet ? { readSheet: options.readSheet } : {}) });
  return { workflow, diagnostics: [...normalised.diagnostics, ...sheets], usage: false };
}

/**
 * A copy of the data with every value a schema issue points at removed (unknown keys dropped, values
 * of the wrong type deleted). Undefined when an issue is about the file itself or a missing key,
 * which cannot be removed.
 */
function withoutIssues(data: unknown, issues: Extract<ShapeCheck, { ok: false }>['issues']): unknown {
  const copy = structuredClone(data) as Record<string, unknown>;
  for (const issue of issues) {
    const parentPath = issue.code === 'unrecognized_keys' ? issue.path : issue.path.slice(0, -1);
    let parent: unknown = copy;
    for (const seg of parentPath) parent = parent !== null && typeof parent === 'object' ? (parent as Record<PropertyKey, unknown>)[seg as PropertyKey] : undefined;
    if (parent === null || typeof parent !== 'object') return undefined;
    const obj = parent as Record<PropertyKey, unknown>;
    if (issue.code === 'unrecognized_keys') {
      for (const k of issue.keys) delete obj[k];
      continue;
    }
    const key = issue.path[issue.path.length - 1];
    if (key === undefined || obj[key as PropertyKey] === undefined || Array.isArray(obj)) return undefined;
    delete obj[key as PropertyKey];
  }
  return copy;
}

/** Bytes → text; a file that is not UTF-8 is E033 at the first bad byte, never U+FFFD. */
export function decodeUtf8(bytes: Uint8Array, file: string): { text: string } | { diagnostic: Diagnostic } {
  try {
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes) };
  } catch {
    const bad = firstInvalidUtf8(bytes);
    const before = new TextDecoder('utf-8').decode(bytes.subarray(0, bad));
    const lines = before.split('\n');
    return {
      diagnostic: diagnostic('E033', `${file} is not valid UTF-8 (byte 0x${bytes[bad]?.toString(16).padStart(2, '0') ?? '??'} at offset ${bad})`, {
        file,
        line: lines.length,
        column: lines[lines.length - 1]!.length + 1,
      }),
    };
  }
}

/** Offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    const n = c < 0x80 ? 0 : c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (n < 0) return i;
    for (let k = 1; k <= n; k++) if (i + k >= b.length || (b[i + k]! & 0xc0) !== 0x80) return i;
    // Overlong, surrogate and out-of-range forms are invalid too.
    if ((c === 0xe0 && b[i + 1]! < 0xa0) || (c === 0xed && b[i + 1]! > 0x9f) || (c === 0xf0 && b[i + 1]! < 0x90) || (c === 0xf4 && b[i + 1]! > 0x8f)) return i;
    i += n + 1;
  }
  return b.length;
}

export interface ReadOptions {
  /** The path shown in diagnostics (default: as given). */
  displayPath?: string;
  /** The project directory (absolute; default: the workflow file's directory). */
  projectDir?: string;
  /** How the project directory is shown in messages about its files ('' for the current directory). */
  projectShown?: string;
  config?: ConfigSettings;
}

/** Read and load a workflow file; an unreadable file is CLI003. */
export function readWorkflowFile(filePath: string, options: ReadOptions = {}): LoadResult {
  const shown = options.displayPath ?? filePath;
  let bytes: Buffer;
  try {
    bytes = readFileSync(filePath);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EACCES' ? 'permission denied' : e.code === 'EISDIR' ? 'it is a directory' : e.message;
    return { diagnostics: [diagnostic('CLI003', `cannot read workflow ${shown}: ${why}`, { file: shown, hint: 'check the path and its permissions' })] };
  }
  const decoded = decodeUtf8(bytes, shown);
  if ('diagnostic' in decoded) return { diagnostics: [decoded.diagnostic] };
  const pipelineDir = path.dirname(path.resolve(filePath));
  const dir = options.projectDir ?? pipelineDir;
  // Without a project directory of its own the workflow's directory is shown as the file is.
  const projectShown = options.projectShown ?? (options.projectDir === undefined ? path.dirname(shown) : '');
  return loadWorkflow(decoded.text, shown, { dir, pipelineDir, readSheet: sheetReader(dir, projectShown), ...(options.config ? { config: options.config } : {}) });
}

/** Sample sheets are read from the project directory, as UTF-8 like the workflow itself. */
export function sheetReader(dir: string, shownDir = ''): ReadSheet {
  return (relative) => {
    const shown = path.isAbsolute(relative) ? relative : path.join(shownDir, relative);
    try {
      const decoded = decodeUtf8(readFileSync(path.resolve(dir, relative)), shown);
      return 'text' in decoded ? { text: decoded.text, shown } : { error: decoded.diagnostic.message, shown };
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      return { shown, error: e.code === 'ENOENT' ? 'no such file' : e.code === 'EACCES' ? 'permission denied' : e.code === 'EISDIR' ? 'it is a directory' : e.message };
    }
  };
}
