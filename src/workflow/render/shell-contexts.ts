// Where each placeholder of a shell command sits, worked out by the real shell parser (shell-parser.ts),
// never guessed. Every placeholder becomes a reference to an environment variable that holds its value
// (script.ts), and the shell never parses the result of a parameter expansion as code: so a value is
// data wherever the reference is expanded. What is left to decide is how to write the reference:
//
//   words    an argument word (`cmd {input}`):          "${OXO_X}"   (a list: one quoted word per element)
//   word     one word by itself (`x={v}`, `> {out}`):   "${OXO_X}"   (a list: its elements in one word)
//   quoted   inside "…" or an unquoted here-document:   ${OXO_X}
//   inert    inside a comment: never expanded           ${OXO_X}
//
// and where a reference would not be data: inside '…' or a quoted here-document the reference is
// not expanded at all; in arithmetic, bash evaluates the value itself (`a[$(cmd)]` runs cmd); a
// `case` pattern or `${v#…}` operator reads it as a pattern; `eval`, `sh -c`, `trap`, `printf -v`
// and their kind run it or read it as a name. Those placeholders are refused, each with its reason.
import { processState } from '../../process-state.js';
import { parseShell, type ShellNode } from './shell-parser.js';
import type { Template, TemplateRef } from './template.js';

export type SlotContext = 'words' | 'word' | 'quoted' | 'inert';

export interface RefusedPlaceholder {
  /** Index of the placeholder among the template's references. */
  ref: number;
  /** Offset of the placeholder in the command text. */
  at: number;
  raw: string;
  why: string;
  hint: string;
}

export interface ShellAnalysis {
  /** One per reference of the template, in order; undefined for a refused one. */
  contexts: (SlotContext | undefined)[];
  refused: RefusedPlaceholder[];
  /** The command (with its placeholders as references) is not valid shell; `at` is the offset in the command text. */
  syntaxError?: { line: number; column: number; at: number; message: string };
}

const ARITHMETIC = new Set(['ArithmExp', 'ArithmCmd', 'BinaryArithm', 'UnaryArithm', 'ParenArithm', 'LetClause']);
const NUMERIC_TESTS = new Set(['-eq', '-ne', '-lt', '-le', '-gt', '-ge']);
const SHELLS = new Set(['sh', 'bash', 'dash', 'ksh', 'mksh', 'zsh', 'ash', 'busybox']);
/** Commands that run an argument as code or read it as a variable name (bash evaluates subscripts). */
const EVALUATING = new Set(['eval', 'trap', 'let', 'unset', 'read', 'mapfile', 'readarray', 'alias', 'declare', 'typeset', 'local', 'export', 'readonly', 'getopts']);
/** Variables whose value the shell expands again when it uses it (`PS4` on every `set -x` line). */
const EXPANDED_AGAIN = new Set(['PS1', 'PS2', 'PS3', 'PS4', 'PROMPT_COMMAND']);

const HINTS = {
  single: 'inside \'…\' the shell expands nothing: use double quotes ("…{x}…", where only $ ` " and \\ are special); for a program\'s own code (awk, python -c), pass the value as an argument instead',
  heredoc: 'a quoted here-document delimiter (<<\'EOF\') expands nothing: write <<EOF, or pass the value as an argument',
  arithmetic: 'bash evaluates a value inside arithmetic as an expression; check the number first: n={x}; case $n in *[!0-9]*) exit 1;; esac, then use $n',
  pattern: 'compare the value as a string instead: [ "$s" = {x} ] (a placeholder in a case pattern or ${v#…} would be read as a pattern)',
  evaluated: 'this command runs or names its argument as code: pass the value as data instead (an argument of a script, a file)',
  delimiter: 'a here-document delimiter must be literal text',
  escaped: 'remove the backslash before the placeholder',
  other: 'use the placeholder as a whole argument, an assignment value, a redirection target, or inside "…"',
};

/**
 * Where analyses are kept between runs (the CLI keeps them on disk: loading and running the parser
 * costs more than the rest of a `validate`). It is asked by the exact command text and must give back
 * what it was given for that text; what it gives is checked against the text's placeholders.
 */
export interface AnalysisStore {
  get(text: string): unknown;
  set(text: string, analysis: ShellAnalysis): void;
}

/** Bump when the analysis changes: stores keep analyses per version. */
export const ANALYSIS_VERSION = 3;

/** The analyses worked out in this process, and the store the CLI chose: one per process (process-state.ts). */
const analyses = processState('shell-analyses', () => ({ cache: new Map<string, ShellAnalysis>(), store: undefined as AnalysisStore | undefined }));
const cache = analyses.cache;

export function setAnalysisStore(s: AnalysisStore | undefined): void {
  analyses.store = s;
}

/** The analysis of one command template; kept per text, so every rule and job that shares it parses once. */
export function analyseShell(text: string, template: Template): ShellAnalysis {
  let found = cache.get(text);
  if (found === undefined) {
    const stored = analyses.store?.get(text);
    found = stored !== undefined && fits(stored, template) ? { ...stored, contexts: stored.contexts.map((c) => c ?? undefined) } : undefined;
    if (found === undefined) {
      found = analyse(text, template);
      analyses.store?.set(text, found);
    }
    cache.set(text, found);
  }
  return found;
}

const CONTEXTS: ReadonlySet<unknown> = new Set(['words', 'word', 'quoted', 'inert']);

/** A stored analysis that has the shape of one for this template (else it is worked out again). */
function fits(a: unknown, template: Template): a is ShellAnalysis {
  if (typeof a !== 'object' || a === null) return false;
  const { contexts, refused, syntaxError } = a as Partial<ShellAnalysis>;
  const refs = refsOf(template);
  if (!Array.isArray(contexts) || contexts.length !== refs.length || !Array.isArray(refused)) return false;
  if (syntaxError !== undefined && (typeof syntaxError !== 'object' || syntaxError === null || typeof syntaxError.message !== 'string')) return false;
  const refusedRefs = new Set<number>();
  for (const r of refused) {
    if (typeof r !== 'object' || r === null || !Number.isInteger(r.ref) || refs[r.ref] === undefined || r.at !== refs[r.ref]!.at || typeof r.why !== 'string' || typeof r.hint !== 'string') return false;
    refusedRefs.add(r.ref);
  }
  // Every placeholder has a context or is refused, never both (JSON has null for undefined).
  return contexts.every((c, k) => (c === null || c === undefined ? refusedRefs.has(k) || syntaxError !== undefined : CONTEXTS.has(c) && !refusedRefs.has(k)));
}

function refsOf(template: Template): TemplateRef[] {
  return template.parts.filter((p): p is TemplateRef => typeof p !== 'string');
}

/** A name prefix that the text does not use, so no marker can be confused with the user's own variable. */
function markerPrefix(text: string): string {
  let prefix = '__oxo_ph';
  while (text.includes(prefix)) prefix += '_';
  return prefix;
}

function analyse(text: string, template: Template): ShellAnalysis {
  const refs = refsOf(template);
  const contexts: (SlotContext | undefined)[] = refs.map(() => undefined);
  const refused: RefusedPlaceholder[] = [];
  const prefix = markerPrefix(text);
  // The command with each placeholder replaced by a reference to a variable named after its index:
  // the parser then sees exactly the script shape that will run.
  let marked = '';
  const markerByte: number[] = [];
  let bytes = 0;
  for (const part of template.parts) {
    const piece = typeof part === 'string' ? part : `\${${prefix}${refs.indexOf(part)}}`;
    if (typeof part !== 'string') markerByte.push(bytes);
    marked += piece;
    bytes += Buffer.byteLength(piece, 'utf8');
  }
  const parsed = parseShell(marked);
  if (!parsed.ok) {
    const at = originalOffset(template, marked, prefix, parsed.line, parsed.column);
    const before = text.slice(0, at).split('\n');
    return { contexts, refused, syntaxError: { line: before.length, column: before[before.length - 1]!.length + 1, at, message: parsed.message } };
  }

  const refuse = (k: number, why: string, hint: string) => refused.push({ ref: k, at: refs[k]!.at, raw: refs[k]!.raw, why, hint });
  const seen = new Set<number>();
  const ancestors: ShellNode[] = [];
  // bash evaluates every assignment to a variable declared -i (integer) as arithmetic, and -n makes a
  // name a reference: with either anywhere in the script, no assignment value is data.
  const integerVars = hasIntegerDeclaration(parsed.root);
  const visit = (node: ShellNode) => {
    if (node.type === 'ParamExp' && node.param !== undefined && node.param.name.startsWith(prefix)) {
      const k = Number(node.param.name.slice(prefix.length));
      if (Number.isInteger(k) && k >= 0 && k < refs.length && !seen.has(k)) {
        seen.add(k);
        const verdict = classify(ancestors, integerVars);
        if (typeof verdict === 'string') contexts[k] = verdict;
        else refuse(k, verdict.why, verdict.hint);
      }
      return;
    }
    ancestors.push(node);
    for (const child of node.children) visit(child);
    ancestors.pop();
  };
  visit(parsed.root);

  // A placeholder the parser did not see as an expansion: its text is inside something that
  // expands nothing (single quotes, a quoted here-document, a comment, after a backslash).
  for (let k = 0; k < refs.length; k++) {
    if (seen.has(k)) continue;
    const chain = containing(parsed.root, markerByte[k]!);
    const inner = chain[chain.length - 1];
    const parent = chain[chain.length - 2];
    if (chain.some((n) => n.type === 'Comment')) contexts[k] = 'inert';
    else if (chain.some((n) => n.type === 'SglQuoted')) refuse(k, "it is inside single quotes ('…'), where the shell expands nothing", HINTS.single);
    else if (inner?.type === 'Lit' && parent?.role === 'heredoc-body') refuse(k, 'it is inside a quoted here-document, where the shell expands nothing', HINTS.heredoc);
    else if (inner?.type === 'Lit') refuse(k, 'it follows a backslash, so the shell would not expand it', HINTS.escaped);
    else refuse(k, 'the shell would not expand it there', HINTS.other);
  }
  refused.sort((a, b) => a.at - b.at);
  return { contexts, refused };
}

/** Where a line and column of the marked text falls in the command as written. */
function originalOffset(template: Template, marked: string, prefix: string, line: number, column: number): number {
  const lines = marked.split('\n');
  let at = column - 1;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i]!.length + 1;
  let markedPos = 0;
  let textPos = 0;
  let k = 0;
  for (const part of template.parts) {
    const piece = typeof part === 'string' ? part : `\${${prefix}${k++}}`;
    const original = typeof part === 'string' ? part.length : part.raw.length;
    if (at < markedPos + piece.length) return textPos + (typeof part === 'string' ? at - markedPos : 0);
    markedPos += piece.length;
    textPos += original;
  }
  return textPos;
}

/**
 * The nodes whose range holds a byte offset, outermost first. Searched through the whole tree: a
 * statement's comments are its children although they lie before the statement's own range.
 */
function containing(root: ShellNode, at: number): ShellNode[] {
  const search = (node: ShellNode): ShellNode[] | undefined => {
    for (const child of node.children) {
      const below = search(child);
      if (below !== undefined) return [node, ...below];
    }
    return node.start <= at && at < node.end ? [node] : undefined;
  };
  return search(root) ?? [root];
}

type Verdict = SlotContext | { why: string; hint: string };

/** Whether a declare, typeset or local in the script gives a variable the -i or -n attribute. */
function hasIntegerDeclaration(root: ShellNode): boolean {
  const stack = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (node.type === 'DeclClause') {
      // mvdan/sh keeps each argument as an Assign; a flag is one without a name, holding its word.
      for (const c of node.children) {
        const words = c.type === 'Word' ? [c] : c.type === 'Assign' && c.name === '' ? c.children.filter((w) => w.type === 'Word') : [];
        if (words.some((w) => /^[-+][a-zA-Z]*[in]/.test(literal(w) ?? ''))) return true;
      }
    }
    stack.push(...node.children);
  }
  return false;
}

/** How a reference must be written, given its ancestors (outermost first), or why it cannot be. */
function classify(ancestors: readonly ShellNode[], integerVars: boolean): Verdict {
  // Anything around it, even across `$( … )`: the output of a substitution inside arithmetic or
  // `eval` is evaluated too.
  for (let i = 0; i < ancestors.length; i++) {
    const a = ancestors[i]!;
    const child = ancestors[i + 1];
    if (ARITHMETIC.has(a.type)) return { why: 'it is inside arithmetic, where bash evaluates the value as an expression', hint: HINTS.arithmetic };
    if (a.type === 'BinaryTest' && a.op !== undefined && NUMERIC_TESTS.has(a.op)) {
      return { why: `it is an operand of ${a.op} in [[ … ]], which bash evaluates as arithmetic`, hint: HINTS.arithmetic };
    }
    if (a.type === 'UnaryTest' && (a.op === '-v' || a.op === '-R')) return { why: `it is the operand of ${a.op}, a variable name whose subscript bash evaluates`, hint: HINTS.evaluated };
    if (a.type === 'Assign' && child?.role === 'index') return { why: 'it is an array index, which bash evaluates as arithmetic', hint: HINTS.arithmetic };
    if (a.type === 'Assign' && a.name !== undefined && EXPANDED_AGAIN.has(a.name)) return { why: `${a.name}'s value is expanded again each time the shell uses it`, hint: HINTS.evaluated };
    if (a.type === 'Assign' && integerVars) return { why: 'the script declares a variable -i or -n, and bash evaluates assignments to it as arithmetic', hint: HINTS.arithmetic };
    if (a.type === 'CaseItem' && child?.type === 'Word') return { why: 'it is in a case pattern, where the value would be read as a pattern', hint: HINTS.pattern };
    if (a.type === 'ParamExp') return { why: 'it is inside a ${…} expansion, where the value would be read as a pattern or a default', hint: HINTS.pattern };
    if (a.type === 'DeclClause' && (child?.type !== 'Assign' || child.name === '')) {
      return { why: 'it is an argument of declare, local or export, which read it as a variable name', hint: HINTS.evaluated };
    }
    if (a.type === 'Redirect' && child?.role === 'heredoc-delimiter') return { why: 'it is a here-document delimiter', hint: HINTS.delimiter };
    if (a.type === 'CallExpr' && child?.type === 'Word') {
      const why = evaluatedArgument(a, child);
      if (why !== undefined) return { why, hint: HINTS.evaluated };
    }
  }
  const parent = ancestors[ancestors.length - 1];
  if (parent === undefined) return { why: 'the shell would not expand it there', hint: HINTS.other };
  if (parent.type === 'DblQuoted') return 'quoted';
  if (parent.type !== 'Word') return { why: 'the shell would not expand it there', hint: HINTS.other };
  if (parent.role === 'heredoc-body') return 'quoted';
  const holder = ancestors[ancestors.length - 2];
  switch (holder?.type) {
    case 'CallExpr':
    case 'ForClause':
    case 'WordIter':
    case 'ArrayElem':
    case 'DeclClause':
    case 'SelectClause':
      return 'words';
    case 'Assign':
    case 'Redirect':
    case 'CaseClause':
    case 'BinaryTest':
    case 'UnaryTest':
    case 'TestClause':
      return 'word';
    default:
      return { why: 'the shell would not expand it there as one value', hint: HINTS.other };
  }
}

/** Why an argument word of a simple command would be run as code or read as a name, if it would. */
function evaluatedArgument(call: ShellNode, word: ShellNode): string | undefined {
  const words = call.children.filter((c) => c.type === 'Word');
  const names = words.map(literal);
  const at = words.indexOf(word);
  let first = 0;
  // `command`, `builtin`, `exec`, `env`, `nohup`, `time` run the next word as the command.
  while (first < names.length - 1 && ['command', 'builtin', 'exec', 'env', 'nohup', 'time', 'sudo'].includes(names[first] ?? '')) first += 1;
  if (at <= first) return undefined;
  const name = (names[first] ?? '').replace(/^.*\//, '');
  if (EVALUATING.has(name)) return `it is an argument of ${name}, which runs it as code or reads it as a variable name`;
  if (name === 'printf' && names.slice(first + 1, at).includes('-v')) return 'it names the variable of printf -v, whose subscript bash evaluates';
  if ((name === 'test' || name === '[') && (names[at - 1] === '-v' || names[at - 1] === '-R')) return `it is the operand of ${name} ${names[at - 1]}, a variable name whose subscript bash evaluates`;
  if (SHELLS.has(name)) {
    // `sh -c SCRIPT [NAME [ARG…]]`: the word after the option cluster holding c is the script.
    for (let i = first + 1; i < at; i++) {
      const opt = names[i];
      if (opt === undefined || !opt.startsWith('-')) break;
      if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(opt) && at === i + 1) return `it is the script of ${name} -c, which runs it as code`;
    }
  }
  return undefined;
}

/** A word's text when it is plain literal text, else undefined. */
function literal(word: ShellNode): string | undefined {
  return word.children.length === 1 && word.children[0]!.type === 'Lit' ? word.children[0]!.value : undefined;
}
