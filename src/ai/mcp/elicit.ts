// Elicitation (form mode): a server asks the person at the terminal for a few values during a
// tool call. This module reads the request's flat schema into fields, turns typed lines into
// values (Enter takes the server's default), and asks in the terminal. Only offered when a person
// is there (the client declares the capability only then); URL mode is not offered. Every word
// shown is the server's and is shown terminal-safe; nothing is sent before the person says so.
import { createInterface } from 'node:readline';
import { terminalSafeLine } from '../../cli/terminal-safe.js';
import { discardPendingInput, question } from '../approval/prompt.js';

export type ElicitValue = string | number | boolean | string[];

export type ElicitResult = { action: 'accept'; content: Record<string, ElicitValue> } | { action: 'decline' } | { action: 'cancel' };

export interface ElicitField {
  name: string;
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  title?: string;
  description?: string;
  required: boolean;
  default?: ElicitValue;
  /** Allowed values (single choice for strings, multiple choice for arrays). */
  choices?: string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
}

export interface ElicitForm {
  message: string;
  fields: ElicitField[];
}

/** Bounds: a form a person can read. */
const MAX_FIELDS = 20;
const MAX_MESSAGE = 2_000;
const MAX_TRIES = 3;

export const ELICIT_FIELD_MARK = '  › ';
export const ELICIT_SEND_PROMPT = 'Send these answers? [y]es / [N]o, decline / [c]ancel the request: ';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

function choicesOf(schema: Record<string, unknown>): string[] | undefined {
  if (Array.isArray(schema.enum)) return schema.enum.filter((v): v is string => typeof v === 'string');
  const options = Array.isArray(schema.oneOf) ? schema.oneOf : Array.isArray(schema.anyOf) ? schema.anyOf : undefined;
  if (options === undefined) return undefined;
  return options.map((o) => (isObject(o) ? str(o.const) : undefined)).filter((v): v is string => v !== undefined);
}

/** The request's form, or why this client cannot show it (then it declines). */
export function parseElicitation(params: Record<string, unknown> | undefined): ElicitForm | { unsupported: string } {
  if (params?.mode !== undefined && params.mode !== 'form') return { unsupported: `elicitation mode ${String(params.mode)} is not offered` };
  const schema = params?.requestedSchema;
  if (!isObject(schema) || schema.type !== 'object' || !isObject(schema.properties)) return { unsupported: 'the request has no object schema' };
  const required = new Set(Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === 'string') : []);
  const entries = Object.entries(schema.properties);
  if (entries.length > MAX_FIELDS) return { unsupported: `the form has ${entries.length} fields (at most ${MAX_FIELDS} are shown)` };
  const fields: ElicitField[] = [];
  for (const [name, raw] of entries) {
    if (!isObject(raw)) return { unsupported: `field ${name} has no schema` };
    const type = raw.type;
    if (type !== 'string' && type !== 'number' && type !== 'integer' && type !== 'boolean' && type !== 'array') return { unsupported: `field ${name} has type ${String(type)}` };
    const f: ElicitField = { name, type, required: required.has(name) };
    if (str(raw.title) !== undefined) f.title = raw.title as string;
    if (str(raw.description) !== undefined) f.description = raw.description as string;
    const choices = type === 'array' ? (isObject(raw.items) ? choicesOf(raw.items) : undefined) : choicesOf(raw);
    if (type === 'array' && choices === undefined) return { unsupported: `field ${name} is a list without choices` };
    if (choices !== undefined) f.choices = choices;
    for (const k of ['minimum', 'maximum', 'minLength', 'maxLength', 'minItems', 'maxItems'] as const) if (num(raw[k]) !== undefined) f[k] = raw[k] as number;
    if (str(raw.format) !== undefined) f.format = raw.format as string;
    // A default the field itself would refuse is not offered.
    if (raw.default !== undefined) {
      const shown = Array.isArray(raw.default) ? raw.default.join(', ') : String(raw.default);
      const d = readAnswer(f, shown);
      if ('value' in d && d.value !== undefined) f.default = d.value;
    }
    fields.push(f);
  }
  const message = str(params?.message) ?? '';
  return { message: message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE)} … (${message.length - MAX_MESSAGE} more characters not shown)` : message, fields };
}

/** One typed line as the field's value. Empty: the default, or nothing for an optional field. */
export function readAnswer(f: ElicitField, line: string): { value: ElicitValue | undefined } | { error: string } {
  const text = line.trim();
  if (text === '') {
    if (f.default !== undefined) return { value: f.default };
    return f.required ? { error: 'an answer is required' } : { value: undefined };
  }
  switch (f.type) {
    case 'boolean':
      if (/^(y|yes|true)$/i.test(text)) return { value: true };
      if (/^(n|no|false)$/i.test(text)) return { value: false };
      return { error: 'answer yes or no' };
    case 'number':
    case 'integer': {
      const n = Number(text);
      if (!Number.isFinite(n)) return { error: 'a number is needed' };
      if (f.type === 'integer' && !Number.isInteger(n)) return { error: 'a whole number is needed' };
      if (f.minimum !== undefined && n < f.minimum) return { error: `at least ${f.minimum}` };
      if (f.maximum !== undefined && n > f.maximum) return { error: `at most ${f.maximum}` };
      return { value: n };
    }
    case 'array': {
      const picked = text.split(',').map((s) => pick(f.choices!, s.trim()));
      if (picked.some((p) => p === undefined)) return { error: `choose from ${f.choices!.join(', ')} (by name or number, separated by commas)` };
      const values = [...new Set(picked as string[])];
      if (f.minItems !== undefined && values.length < f.minItems) return { error: `choose at least ${f.minItems}` };
      if (f.maxItems !== undefined && values.length > f.maxItems) return { error: `choose at most ${f.maxItems}` };
      return { value: values };
    }
    default: {
      if (f.choices !== undefined) {
        const p = pick(f.choices, text);
        return p === undefined ? { error: `choose one of ${f.choices.join(', ')} (by name or number)` } : { value: p };
      }
      if (f.minLength !== undefined && text.length < f.minLength) return { error: `at least ${f.minLength} characters` };
      if (f.maxLength !== undefined && text.length > f.maxLength) return { error: `at most ${f.maxLength} characters` };
      if (f.format === 'email' && !/^[^\s@]+@[^\s@]+$/.test(text)) return { error: 'an email address is needed' };
      if (f.format === 'uri' && !URL.canParse(text)) return { error: 'a URI is needed' };
      if (f.format === 'date' && !/^\d{4}-\d{2}-\d{2}$/.test(text)) return { error: 'a date YYYY-MM-DD is needed' };
      if (f.format === 'date-time' && Number.isNaN(Date.parse(text))) return { error: 'a date and time (ISO 8601) is needed' };
      return { value: text };
    }
  }
}

function pick(choices: string[], text: string): string | undefined {
  if (/^\d+$/.test(text)) return choices[Number(text) - 1];
  return choices.find((c) => c === text) ?? choices.find((c) => c.toLowerCase() === text.toLowerCase());
}

function fieldPrompt(f: ElicitField): string {
  const about = [f.title, f.description].filter((s) => s !== undefined && s !== '').map((s) => terminalSafeLine(s!)).join(': ');
  const kind = f.choices !== undefined ? `${f.type === 'array' ? 'any of' : 'one of'} ${f.choices.map((c, i) => `${i + 1}) ${terminalSafeLine(c)}`).join(' ')}` : f.type === 'string' ? (f.format ?? 'text') : f.type === 'boolean' ? 'y/n' : f.type;
  const dflt = f.default !== undefined ? ` [${terminalSafeLine(Array.isArray(f.default) ? f.default.join(', ') : String(f.default))}]` : f.required ? ' (required)' : ' (optional)';
  return `${ELICIT_FIELD_MARK}${terminalSafeLine(f.name)}${about ? ` — ${about}` : ''} (${kind})${dflt}: `;
}

/** Ask in the terminal: the fields one by one, then whether to send. Never rejects. */
export async function askElicitation(server: string, form: ElicitForm, io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream }): Promise<ElicitResult> {
  await discardPendingInput(io.input as NodeJS.ReadableStream & { isTTY?: boolean });
  const lines = ['', `The MCP server ${terminalSafeLine(server)} asks for input (its own words below; never type passwords or keys here):`];
  for (const l of form.message.split('\n')) lines.push(`  ${terminalSafeLine(l)}`);
  lines.push('  (Enter takes the value in [brackets]; Ctrl-C cancels)');
  io.output.write(`${lines.join('\n')}\n`);
  const rl = createInterface({ input: io.input, output: io.output, terminal: Boolean((io.input as { isTTY?: boolean }).isTTY) });
  try {
    const content: Record<string, ElicitValue> = {};
    for (const f of form.fields) {
      for (let tries = 1; ; tries++) {
        const a = await question(rl, fieldPrompt(f));
        if ('end' in a) return { action: 'cancel' };
        const read = readAnswer(f, a.line);
        if ('value' in read) {
          if (read.value !== undefined) content[f.name] = read.value;
          break;
        }
        io.output.write(`    ${read.error}\n`);
        if (tries >= MAX_TRIES) return { action: 'cancel' };
      }
    }
    const send = await question(rl, ELICIT_SEND_PROMPT);
    if ('end' in send) return { action: 'cancel' };
    if (/^(y|yes)$/i.test(send.line.trim())) return { action: 'accept', content };
    return /^(c|cancel)$/i.test(send.line.trim()) ? { action: 'cancel' } : { action: 'decline' };
  } finally {
    rl.close();
  }
}

/**
 * The handler the client uses: one form at a time (parallel calls queue), a request it cannot
 * show is declined at once.
 */
export function terminalElicitor(io: { input: NodeJS.ReadableStream; output: NodeJS.WritableStream }): (server: string, params: Record<string, unknown> | undefined) => Promise<ElicitResult> {
  let queue: Promise<unknown> = Promise.resolve();
  return (server, params) => {
    const form = parseElicitation(params);
    if ('unsupported' in form) {
      io.output.write(`The MCP server ${terminalSafeLine(server)} asked for input this client cannot show (${terminalSafeLine(form.unsupported)}); declined.\n`);
      return Promise.resolve({ action: 'decline' });
    }
    const next = queue.then(() => askElicitation(server, form, io));
    queue = next.catch(() => undefined);
    return next;
  };
}
