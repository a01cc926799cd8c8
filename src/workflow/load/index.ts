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
import { normaliseWorkflow } from './normalise.js';
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
    return { data: parse(text, { maxDepth: MAX_TOML_DEPTH, unsafeKeyBehaviour: 'throw' }) };
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

/** Load workflow text. Pure: `file` is used for diagnostics and, with `dir`, to resolve relative paths. */
export function loadWorkflow(text: string, file: string, options: { dir?: string } = {}): LoadResult {
  const parsed = parseToml(text, file);
  if (parsed.diagnostic) return { diagnostics: [parsed.diagnostic] };
  const lines = new LineIndex(text);
  const positions = indexKeyPositions(text, lines);
  const checked = checkShape(parsed.data);
  if (!checked.ok) {
    return { diagnostics: issuesToDiagnostics(checked.issues, { file, data: parsed.data, schema: checked.schema, positions }) };
  }
  const { workflow, diagnostics } = normaliseWorkflow(checked.data, {
    file,
    text,
    positions,
    ...(options.dir !== undefined ? { dir: options.dir } : {}),
  });
  return { workflow, diagnostics };
}

/** Read and load a workflow file; an unreadable file is CLI003. */
export function readWorkflowFile(filePath: string, options: { displayPath?: string } = {}): LoadResult {
  const shown = options.displayPath ?? filePath;
  let text: string;
  try {
    text = readFileSync(filePath, 'utf8');
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'ENOENT' ? 'no such file' : e.code === 'EACCES' ? 'permission denied' : e.code === 'EISDIR' ? 'it is a directory' : e.message;
    return { diagnostics: [diagnostic('CLI003', `cannot read workflow ${shown}: ${why}`, { file: shown, hint: 'check the path and its permissions' })] };
  }
  return loadWorkflow(text, shown, { dir: path.dirname(path.resolve(filePath)) });
}
