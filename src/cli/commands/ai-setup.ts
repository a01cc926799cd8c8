// `oxo-flow ai setup`: write $OXO_FLOW_HOME/ai_config.json (mode 0600) once, so every AI command
// finds its provider. Interactive on a terminal (kind, model, base URL, key typed masked and never
// echoed); with --provider (and --model, --base-url, --key-env NAME) it asks nothing, for scripts.
// A key is only ever typed at the masked prompt or named by --key-env: never a command-line value.
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { diagnostic } from '../../diagnostics/diagnostic.js';
import { nonInteractiveReason } from '../../ai/approval/policy.js';
import { MODEL_KINDS, PROVIDERS, providerInfo } from '../../ai/providers/registry.js';
import { AI_CONFIG_SCHEMA_VERSION } from '../../ai/providers/resolve.js';
import { maskUrl } from '../../ai/secrets.js';
import { oxoFlowHome } from '../../ai/skills/index.js';
import type { CliContext } from '../context.js';
import { failure, type CommandResult } from '../result.js';

export interface AiSetupOptions {
  provider?: string;
  model?: string;
  baseUrl?: string;
  keyEnv?: string;
}

const KINDS = MODEL_KINDS;
type SetupKind = string;

interface Answers {
  kind: SetupKind;
  model: string;
  baseUrl?: string;
  keyEnv?: string;
  key?: string;
}

export async function aiSetup(opts: AiSetupOptions, ctx: CliContext): Promise<CommandResult> {
  const file = path.join(oxoFlowHome(ctx.env), 'ai_config.json');
  let answers: Answers;
  if (opts.provider !== undefined) {
    const checked = fromFlags(opts);
    if ('error' in checked) return failure('usage', [diagnostic('AI030', checked.error, { hint: `kinds: ${KINDS.join(', ')}` })]);
    answers = checked;
  } else {
    const why = nonInteractiveReason({ env: ctx.env, json: ctx.json, stdinIsTTY: ctx.stdinIsTTY, stderrIsTTY: ctx.stderrIsTTY });
    if (why !== undefined) {
      return failure('usage', [
        diagnostic('AI030', `ai setup cannot ask questions here (${why})`, { hint: 'pass --provider KIND [--model M] [--base-url URL] [--key-env NAME], e.g. --provider openai --key-env OPENAI_API_KEY' }),
      ]);
    }
    const asked = await ask(ctx);
    if (asked === undefined) return { outcome: 'interrupted', json: { written: false }, diagnostics: [diagnostic('AI030', 'ai setup cancelled; nothing was written')] };
    answers = asked;
  }
  const existing = readExisting(file);
  // openai-compatible is a kind of its own: its server never gets OPENAI_API_KEY, only the key named for it.
  const config: Record<string, unknown> = { ...existing, schema_version: AI_CONFIG_SCHEMA_VERSION, provider: answers.kind, model: answers.model };
  for (const k of ['base_url', 'key_env', 'api_key']) delete config[k];
  if (answers.baseUrl !== undefined) config.base_url = answers.baseUrl;
  if (answers.keyEnv !== undefined) config.key_env = answers.keyEnv;
  if (answers.key !== undefined) config.api_key = answers.key;
  try {
    writePrivate(file, `${JSON.stringify(config, null, 2)}\n`);
  } catch (err) {
    return failure('failed', [diagnostic('AI031', `cannot write ${file}: ${(err as Error).message}`, { file, hint: 'check that $OXO_FLOW_HOME is writable' })]);
  }
  const keyNote = answers.key !== undefined ? 'stored in the file (mode 0600)' : answers.keyEnv !== undefined ? `read from $${answers.keyEnv}` : 'none';
  return {
    outcome: 'ok',
    json: { written: true, path: file, provider: config.provider, model: answers.model, base_url: answers.baseUrl !== undefined ? maskUrl(answers.baseUrl) : null, key: keyNote },
    human: (style) =>
      `${style.green('✓')} wrote ${style.bold(file)} (mode 0600)\n` +
      `  provider ${config.provider as string}, model ${answers.model}${answers.baseUrl ? `, base URL ${maskUrl(answers.baseUrl)}` : ''}; key: ${keyNote}\n` +
      `  next: ${style.bold('oxo-flow ai status --check')} sends one small request to prove it answers`,
  };
}

function fromFlags(opts: AiSetupOptions): Answers | { error: string } {
  const kind = opts.provider!.trim().toLowerCase() as SetupKind;
  const info = providerInfo(kind);
  if (info === undefined) return { error: `--provider ${opts.provider}: unknown provider kind` };
  if (info.baseUrl === undefined && !opts.baseUrl) return { error: `--provider ${kind} needs --base-url (the server’s …/v1 URL)` };
  if (opts.baseUrl !== undefined && !/^https?:\/\/[^/]/i.test(opts.baseUrl)) return { error: `--base-url ${maskUrl(opts.baseUrl)}: must be an http(s) URL` };
  if (opts.keyEnv !== undefined && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(opts.keyEnv)) return { error: `--key-env ${opts.keyEnv}: must be an environment variable name (the key itself never goes on the command line)` };
  const model = opts.model?.trim() || info.model;
  if (!model) return { error: `--model is required for ${kind}` };
  const out: Answers = { kind, model };
  if (opts.baseUrl !== undefined) out.baseUrl = opts.baseUrl.replace(/\/+$/, '');
  if (opts.keyEnv !== undefined) out.keyEnv = opts.keyEnv;
  return out;
}

async function ask(ctx: CliContext): Promise<Answers | undefined> {
  // require, not import(): the bundle may run from a V8 code cache, where a dynamic import has no loader.
  const prompts = createRequire(import.meta.url)('prompts') as typeof import('prompts');
  const io = { stdin: ctx.stdin as NodeJS.ReadStream, stdout: ctx.stderr as NodeJS.WriteStream };
  let cancelled = false;
  const onCancel = () => {
    cancelled = true;
    return false;
  };
  const { kind } = await prompts(
    {
      type: 'select',
      name: 'kind',
      message: 'Which AI provider?',
      choices: PROVIDERS.map((p) => ({ title: p.title, value: p.kind })),
      ...io,
    },
    { onCancel },
  );
  if (cancelled || kind === undefined) return undefined;
  const k = kind as SetupKind;
  const defaults = providerInfo(k);
  // A server the user names (no default endpoint) may need no key; a local one with a default needs none.
  const named = defaults?.baseUrl === undefined;
  const local = defaults !== undefined && !defaults.keyRequired && !named;
  const rest = await prompts(
    [
      { type: 'text', name: 'model', message: 'Model', initial: defaults?.model ?? '', validate: (v: string) => (v.trim() !== '' ? true : 'a model name is needed'), ...io },
      {
        type: local || named ? 'text' : null,
        name: 'baseUrl',
        message: 'Base URL (ending in /v1)',
        initial: defaults?.baseUrl ?? 'http://localhost:8000/v1',
        validate: (v: string) => (/^https?:\/\/[^/]/i.test(v.trim()) ? true : 'an http(s) URL, e.g. http://localhost:11434/v1'),
        ...io,
      },
      {
        type: local ? null : 'select',
        name: 'keyFrom',
        message: 'API key',
        choices: [
          { title: `Read it from an environment variable${defaults?.keyEnv ? ` (e.g. ${defaults.keyEnv})` : ''}`, value: 'env' },
          { title: 'Type it now (stored in ai_config.json, mode 0600)', value: 'file' },
          ...(named ? [{ title: 'No key needed', value: 'none' }] : []),
        ],
        ...io,
      },
      {
        type: (prev: string) => (prev === 'env' ? 'text' : prev === 'file' ? 'password' : null),
        name: 'keyValue',
        message: (prev: string) => (prev === 'env' ? 'Environment variable name' : 'API key (typing is hidden)'),
        initial: (prev: string) => (prev === 'env' ? (defaults?.keyEnv ?? 'OXO_FLOW_AI_API_KEY') : ''),
        validate: (v: string) => (v.trim() !== '' ? true : 'required'),
        ...io,
      },
    ],
    { onCancel },
  );
  if (cancelled) return undefined;
  const out: Answers = { kind: k, model: String(rest.model).trim() };
  if (typeof rest.baseUrl === 'string' && rest.baseUrl.trim() !== '') out.baseUrl = rest.baseUrl.trim().replace(/\/+$/, '');
  if (rest.keyFrom === 'env') out.keyEnv = String(rest.keyValue).trim();
  if (rest.keyFrom === 'file') out.key = String(rest.keyValue).trim();
  return out;
}

/** The current file's other settings (models, fallback, timeouts) are kept; an unreadable file is replaced. */
function readExisting(file: string): Record<string, unknown> {
  try {
    const value = JSON.parse(readFileSync(file, 'utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) && value.schema_version === AI_CONFIG_SCHEMA_VERSION ? value : {};
  } catch {
    return {};
  }
}

/** Write through a private temporary file and rename, so the key is never readable by others, even briefly. */
function writePrivate(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
    chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  } finally {
    rmSync(tmp, { force: true });
  }
}
