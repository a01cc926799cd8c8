// The `when` condition language: parse once into a small tree, evaluate against config and the file
// system. Unlike the reference engine, text that does not parse is an error (E022), never "true".
//
// Grammar (precedence low → high):
//   or      := and ( "||" and )*
//   and     := unary ( "&&" unary )*
//   unary   := "!" unary | primary
//   primary := "(" or ")" | "true" | "false" | file_exists("path") | config.KEY [ OP literal ]
//   OP      := == | != | < | <= | > | >=
//   literal := "string" | 'string' | number | true | false
import type { ConfigValue } from './model.js';

export type CompareOp = '==' | '!=' | '<' | '<=' | '>' | '>=';
export type WhenLiteral = string | number | boolean;

export type WhenExpr =
  | { kind: 'bool'; value: boolean }
  | { kind: 'not'; expr: WhenExpr }
  | { kind: 'and'; left: WhenExpr; right: WhenExpr }
  | { kind: 'or'; left: WhenExpr; right: WhenExpr }
  | { kind: 'config'; key: string }
  | { kind: 'compare'; key: string; op: CompareOp; value: WhenLiteral }
  | { kind: 'file_exists'; path: string };

export type ParseWhenResult = { ok: true; expr: WhenExpr } | { ok: false; message: string; column: number };

export interface WhenEnv {
  config(key: string): ConfigValue | undefined;
  fileExists(path: string): boolean;
}

type Token =
  | { type: 'op'; text: '&&' | '||' | '!' | '(' | ')' | ',' | CompareOp; column: number }
  | { type: 'word'; text: string; column: number }
  | { type: 'string'; text: string; column: number }
  | { type: 'number'; value: number; text: string; column: number }
  | { type: 'end'; column: number };

class WhenSyntaxError {
  constructor(
    readonly message: string,
    readonly column: number,
  ) {}
}

const WORD_START = /[A-Za-z_]/;
const WORD_CHAR = /[A-Za-z0-9_.-]/;
const DIGIT = /[0-9]/;
/** Deep nesting is legal but pointless; the cap keeps the recursive parser far from the stack limit. */
const MAX_DEPTH = 64;

function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const column = i + 1;
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') {
      i += 1;
      continue;
    }
    const two = text.slice(i, i + 2);
    if (two === '&&' || two === '||' || two === '==' || two === '!=' || two === '<=' || two === '>=') {
      tokens.push({ type: 'op', text: two, column });
      i += 2;
      continue;
    }
    if (c === '!' || c === '(' || c === ')' || c === ',' || c === '<' || c === '>') {
      tokens.push({ type: 'op', text: c, column });
      i += 1;
      continue;
    }
    if (c === '"' || c === "'") {
      const end = text.indexOf(c, i + 1);
      if (end < 0) throw new WhenSyntaxError(`unterminated string starting with ${c}`, column);
      tokens.push({ type: 'string', text: text.slice(i + 1, end), column });
      i = end + 1;
      continue;
    }
    if (DIGIT.test(c) || (c === '-' && DIGIT.test(text[i + 1] ?? ''))) {
      let j = i + 1;
      while (j < text.length && /[0-9.]/.test(text[j]!)) j += 1;
      const raw = text.slice(i, j);
      const value = Number(raw);
      if (!Number.isFinite(value)) throw new WhenSyntaxError(`"${raw}" is not a number`, column);
      tokens.push({ type: 'number', value, text: raw, column });
      i = j;
      continue;
    }
    if (WORD_START.test(c)) {
      let j = i + 1;
      while (j < text.length && WORD_CHAR.test(text[j]!)) j += 1;
      tokens.push({ type: 'word', text: text.slice(i, j), column });
      i = j;
      continue;
    }
    if (c === '&' || c === '|' || c === '=') {
      throw new WhenSyntaxError(`unexpected "${c}" (did you mean "${c}${c}"?)`, column);
    }
    throw new WhenSyntaxError(`unexpected character "${c}"`, column);
  }
  tokens.push({ type: 'end', column: text.length + 1 });
  return tokens;
}

class Parser {
  private pos = 0;
  private depth = 0;
  constructor(private readonly tokens: Token[]) {}

  private peek(): Token {
    return this.tokens[this.pos]!;
  }

  private next(): Token {
    const t = this.tokens[this.pos]!;
    if (t.type !== 'end') this.pos += 1;
    return t;
  }

  private isOp(text: string): boolean {
    const t = this.peek();
    return t.type === 'op' && t.text === text;
  }

  parseAll(): WhenExpr {
    const expr = this.parseOr();
    const t = this.peek();
    if (t.type !== 'end') throw new WhenSyntaxError(`unexpected ${describe(t)} (expected && or || between conditions)`, t.column);
    return expr;
  }

  private parseOr(): WhenExpr {
    let left = this.parseAnd();
    while (this.isOp('||')) {
      this.next();
      left = { kind: 'or', left, right: this.parseAnd() };
    }
    return left;
  }

  private parseAnd(): WhenExpr {
    let left = this.parseUnary();
    while (this.isOp('&&')) {
      this.next();
      left = { kind: 'and', left, right: this.parseUnary() };
    }
    return left;
  }

  private parseUnary(): WhenExpr {
    if (this.isOp('!')) {
      const bang = this.next();
      return { kind: 'not', expr: this.nested(bang.column, () => this.parseUnary()) };
    }
    return this.parsePrimary();
  }

  private nested<T>(column: number, parse: () => T): T {
    this.depth += 1;
    if (this.depth > MAX_DEPTH) throw new WhenSyntaxError(`expression nested more than ${MAX_DEPTH} levels deep`, column);
    try {
      return parse();
    } finally {
      this.depth -= 1;
    }
  }

  private parsePrimary(): WhenExpr {
    const t = this.next();
    if (t.type === 'op' && t.text === '(') {
      const inner = this.nested(t.column, () => this.parseOr());
      const close = this.next();
      if (!(close.type === 'op' && close.text === ')')) {
        throw new WhenSyntaxError(`expected ")" to close the "(" at column ${t.column}, found ${describe(close)}`, close.column);
      }
      return inner;
    }
    if (t.type === 'word') {
      if (t.text === 'true' || t.text === 'false') return { kind: 'bool', value: t.text === 'true' };
      if (t.text === 'file_exists') return this.parseFileExists(t);
      if (t.text.startsWith('config.')) return this.parseConfig(t);
      throw new WhenSyntaxError(
        `unknown name "${t.text}" (expected config.KEY, file_exists("path"), true or false)`,
        t.column,
      );
    }
    throw new WhenSyntaxError(`expected a condition, found ${describe(t)}`, t.column);
  }

  private parseFileExists(word: Token & { type: 'word' }): WhenExpr {
    const open = this.next();
    if (!(open.type === 'op' && open.text === '(')) {
      throw new WhenSyntaxError('file_exists needs a quoted path in parentheses: file_exists("path")', open.column);
    }
    const arg = this.next();
    if (arg.type !== 'string') throw new WhenSyntaxError(`file_exists expects a quoted path, found ${describe(arg)}`, arg.column);
    const close = this.next();
    if (!(close.type === 'op' && close.text === ')')) {
      throw new WhenSyntaxError(`expected ")" after the path of file_exists at column ${word.column}`, close.column);
    }
    return { kind: 'file_exists', path: arg.text };
  }

  private parseConfig(word: Token & { type: 'word' }): WhenExpr {
    const key = word.text.slice('config.'.length);
    if (key === '' || !/^[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*$/.test(key)) {
      throw new WhenSyntaxError(`"${word.text}" is not a config key (expected config.NAME)`, word.column);
    }
    const op = this.peek();
    if (op.type !== 'op' || !isCompareOp(op.text)) return { kind: 'config', key };
    this.next();
    const lit = this.next();
    let value: WhenLiteral;
    if (lit.type === 'string') value = lit.text;
    else if (lit.type === 'number') value = lit.value;
    else if (lit.type === 'word' && (lit.text === 'true' || lit.text === 'false')) value = lit.text === 'true';
    else if (lit.type === 'word') {
      throw new WhenSyntaxError(`"${lit.text}" after ${op.text} must be quoted: "${lit.text}"`, lit.column);
    } else throw new WhenSyntaxError(`expected a value after ${op.text}, found ${describe(lit)}`, lit.column);
    return { kind: 'compare', key, op: op.text, value };
  }
}

function isCompareOp(text: string): text is CompareOp {
  return text === '==' || text === '!=' || text === '<' || text === '<=' || text === '>' || text === '>=';
}

function describe(t: Token): string {
  switch (t.type) {
    case 'end':
      return 'the end of the expression';
    case 'string':
      return `the string "${t.text}"`;
    case 'number':
      return `the number ${t.text}`;
    default:
      return `"${t.text}"`;
  }
}

/** Parse a `when` expression. Columns are 1-based positions within `text`. */
export function parseWhen(text: string): ParseWhenResult {
  if (text.trim() === '') return { ok: false, message: 'the condition is empty', column: 1 };
  try {
    return { ok: true, expr: new Parser(tokenize(text)).parseAll() };
  } catch (err) {
    if (err instanceof WhenSyntaxError) return { ok: false, message: err.message, column: err.column };
    throw err;
  }
}

/** Every config key the expression reads (for the E005 check). */
export function whenConfigKeys(expr: WhenExpr): string[] {
  const keys: string[] = [];
  const visit = (e: WhenExpr): void => {
    switch (e.kind) {
      case 'config':
      case 'compare':
        keys.push(e.key);
        return;
      case 'not':
        visit(e.expr);
        return;
      case 'and':
      case 'or':
        visit(e.left);
        visit(e.right);
        return;
      default:
        return;
    }
  };
  visit(expr);
  return keys;
}

/** false, 0, "", "false" (any case), "0" and [] are falsy; an unset key is falsy. */
function truthy(value: ConfigValue | undefined): boolean {
  if (value === undefined) return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  if (Array.isArray(value)) return value.length > 0;
  const s = value.trim().toLowerCase();
  return s !== '' && s !== 'false' && s !== '0';
}

function asNumber(value: ConfigValue | WhenLiteral): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return undefined;
}

function asText(value: ConfigValue): string {
  return Array.isArray(value) ? value.map(asText).join(' ') : String(value);
}

function compare(actual: ConfigValue | undefined, op: CompareOp, expected: WhenLiteral): boolean {
  // An unset key compares as the empty string, so `config.bed != ""` reads naturally.
  const value: ConfigValue = actual ?? '';
  const a = asNumber(value);
  const b = asNumber(expected);
  if (a !== undefined && b !== undefined && typeof expected === 'number') {
    switch (op) {
      case '==':
        return a === b;
      case '!=':
        return a !== b;
      case '<':
        return a < b;
      case '<=':
        return a <= b;
      case '>':
        return a > b;
      case '>=':
        return a >= b;
    }
  }
  if (typeof expected === 'boolean') {
    const equal = truthy(value) === expected;
    if (op === '==') return equal;
    if (op === '!=') return !equal;
    return false;
  }
  const left = asText(value);
  const right = String(expected);
  switch (op) {
    case '==':
      return left === right;
    case '!=':
      return left !== right;
    default:
      // Ordering only means something for numbers on both sides.
      return a !== undefined && b !== undefined ? compare(a, op, b) : false;
  }
}

export function evaluateWhen(expr: WhenExpr, env: WhenEnv): boolean {
  switch (expr.kind) {
    case 'bool':
      return expr.value;
    case 'not':
      return !evaluateWhen(expr.expr, env);
    case 'and':
      return evaluateWhen(expr.left, env) && evaluateWhen(expr.right, env);
    case 'or':
      return evaluateWhen(expr.left, env) || evaluateWhen(expr.right, env);
    case 'config':
      return truthy(env.config(expr.key));
    case 'compare':
      return compare(env.config(expr.key), expr.op, expr.value);
    case 'file_exists':
      return env.fileExists(expr.path);
  }
}
