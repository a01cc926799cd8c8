// The shell language parser: mvdan/sh (the parser behind shfmt), as the `mvdan-sh` package compiles
// it to JavaScript. It is the only module that touches the package: it turns the package's syntax
// tree into a small plain tree of our own (node types, byte ranges, and the few facts the context
// analysis needs), so the rest of the engine never depends on the package's object model.
//
// Loaded on first use (about 1.5 MB of JavaScript): a command that never looks at a shell command
// never pays for it, and the analysis of each command text is kept for the whole process.
import { createRequire } from 'node:module';
import { processState } from '../../process-state.js';

/** One node of the syntax tree. Offsets are UTF-8 byte offsets into the parsed text, end exclusive. */
export interface ShellNode {
  /** mvdan/sh's node type: Word, Lit, ParamExp, DblQuoted, SglQuoted, CmdSubst, CallExpr, Redirect, … */
  type: string;
  start: number;
  end: number;
  children: ShellNode[];
  /** ParamExp: the parameter's name; `plain` when it is `${name}` or `$name` with no operator. */
  param?: { name: string; plain: boolean };
  /**
   * Word under a Redirect: the body of a here-document, or its delimiter. Word under an Assign: its
   * value, or the index of `a[i]=v`.
   */
  role?: 'heredoc-body' | 'heredoc-delimiter' | 'value' | 'index';
  /** BinaryTest (`[[ a -eq b ]]`) and UnaryTest (`[[ -v a ]]`): the operator as written. */
  op?: string;
  /** Assign: the variable's name. */
  name?: string;
  /** Lit: its text. */
  value?: string;
}

export type ShellParse = { ok: true; root: ShellNode } | { ok: false; line: number; column: number; message: string };

// The few members of the package's objects that are read here (mvdan.cc/sh/v3/syntax names).
interface Pos {
  Offset(): number;
}
interface SyntaxNode {
  Pos(): Pos;
  End(): Pos;
  [field: string]: unknown;
}
interface Syntax {
  NewParser(...options: unknown[]): { Parse(src: string, name: string): SyntaxNode };
  KeepComments(on: boolean): unknown;
  Variant(lang: unknown): unknown;
  LangBash: unknown;
  Walk(node: SyntaxNode, visit: (node: SyntaxNode | null) => boolean): void;
  NodeType(node: SyntaxNode): string;
}

/** The loaded package and where its code cache is: one per process, whichever bundle asks (process-state.ts). */
const parser = processState('shell-parser', () => ({ syntax: undefined as Syntax | undefined, codeCacheFile: undefined as string | undefined }));

/**
 * Where V8 may keep the compiled package between runs (the CLI names a file in the user's cache):
 * compiling its 1.5 MB costs about 70 ms, reading a cache a few. Without it the package is required.
 */
export function setParserCodeCache(file: string | undefined): void {
  parser.codeCacheFile = file;
}

function load(): Syntax {
  if (parser.syntax !== undefined) return parser.syntax;
  const req = createRequire(import.meta.url);
  const file = parser.codeCacheFile;
  parser.syntax = (file === undefined ? (req('mvdan-sh') as { syntax: Syntax }) : loadCached(req, file)).syntax;
  return parser.syntax;
}

/** The package compiled with V8's code cache (made on first use; a cache V8 rejects is made again). */
function loadCached(req: NodeJS.Require, cacheFile: string): { syntax: Syntax } {
  const fs = req('node:fs') as typeof import('node:fs');
  const vm = req('node:vm') as typeof import('node:vm');
  const path = req('node:path') as typeof import('node:path');
  const file = req.resolve('mvdan-sh');
  let cachedData: Buffer | undefined;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    cachedData = undefined;
  }
  const source = fs.readFileSync(file, 'utf8');
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as { syntax: Syntax } };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, createRequire(file), module, file, path.dirname(file));
  if (cachedData === undefined || script.cachedDataRejected) {
    try {
      fs.mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
      const temp = `${cacheFile}.${process.pid}.tmp`;
      fs.writeFileSync(temp, script.createCachedData(), { mode: 0o600 });
      fs.renameSync(temp, cacheFile);
    } catch {
      // A read-only cache directory: the next run compiles again.
    }
  }
  return module.exports;
}

/**
 * Parse a shell script. The bash variant is a superset of POSIX sh: it recognises the bash-only
 * constructs (`[[ … ]]`, `(( … ))`, `$'…'`, arrays) whose contexts matter, and the jobs' /bin/sh
 * never sees them as anything safer.
 */
export function parseShell(text: string): ShellParse {
  const sh = load();
  let file: SyntaxNode;
  try {
    file = sh.NewParser(sh.KeepComments(true), sh.Variant(sh.LangBash)).Parse(text, '');
  } catch (e) {
    return parseError(text, e);
  }
  const bytes = Buffer.from(text, 'utf8');
  const root: ShellNode = { type: 'File', start: 0, end: bytes.length, children: [] };
  const stack: { node: ShellNode; raw: SyntaxNode }[] = [];
  sh.Walk(file, (raw) => {
    if (raw === null) {
      stack.pop();
      return true;
    }
    const type = sh.NodeType(raw);
    const node: ShellNode = { type, start: raw.Pos().Offset(), end: raw.End().Offset(), children: [] };
    const parent = stack[stack.length - 1];
    if (parent === undefined) {
      // The File itself: its node is the root made above.
      stack.push({ node: root, raw });
      return true;
    }
    describe(node, raw, parent, bytes);
    parent.node.children.push(node);
    stack.push({ node, raw });
    return true;
  });
  return { ok: true, root };
}

function describe(node: ShellNode, raw: SyntaxNode, parent: { node: ShellNode; raw: SyntaxNode }, bytes: Buffer): void {
  if (node.type === 'Lit') {
    node.value = String(raw.Value);
  } else if (node.type === 'ParamExp') {
    const p = raw.Param as { Value: string } | null;
    // Any operator, index, slice, length, indirection or replacement makes it more than a reference.
    const plain = !raw.Exp && !raw.Repl && !raw.Index && !raw.Slice && !raw.Length && !raw.Excl && !raw.Width && !raw.Names;
    node.param = { name: p?.Value ?? '', plain };
  } else if (node.type === 'Word' && parent.node.type === 'Redirect') {
    const hdoc = parent.raw.Hdoc as SyntaxNode | null;
    if (hdoc) {
      const word = parent.raw.Word as SyntaxNode | null;
      if (hdoc.Pos().Offset() === node.start) node.role = 'heredoc-body';
      else if (word && word.Pos().Offset() === node.start) node.role = 'heredoc-delimiter';
    }
  } else if (node.type === 'Word' && parent.node.type === 'Assign') {
    const value = parent.raw.Value as SyntaxNode | null;
    node.role = value && value.Pos().Offset() === node.start ? 'value' : 'index';
  } else if (node.type === 'Assign') {
    node.name = String((raw.Name as { Value?: string } | null)?.Value ?? '');
  } else if (node.type === 'UnaryTest') {
    const x = raw.X as SyntaxNode | null;
    if (x) node.op = bytes.subarray(node.start, x.Pos().Offset()).toString('utf8').trim();
  } else if (node.type === 'BinaryTest') {
    const x = raw.X as SyntaxNode | null;
    const y = raw.Y as SyntaxNode | null;
    if (x && y) node.op = bytes.subarray(x.End().Offset(), y.Pos().Offset()).toString('utf8').trim();
  }
}

/** The package reports errors as Go errors: "LINE:COL: message", the column counted in bytes. */
function parseError(text: string, e: unknown): ShellParse {
  const err = e as { Error?: () => string; message?: string };
  const message = typeof err?.Error === 'function' ? err.Error() : String(err?.message ?? e);
  const m = /^(?:[^:]*:)?(\d+):(\d+): (.*)$/s.exec(message);
  if (!m) return { ok: false, line: 1, column: 1, message };
  const line = Number(m[1]);
  const lineText = text.split('\n')[line - 1] ?? '';
  const column = Buffer.from(lineText, 'utf8').subarray(0, Number(m[2]) - 1).toString('utf8').length + 1;
  return { ok: false, line, column, message: m[3]! };
}
