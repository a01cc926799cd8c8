// What every AI command sets up around the agent loop, in one place: the provider client (with
// retries and fallback), the approval gate's view of this session, the session record, the
// secrets to mask, and Ctrl-C → cancel. The command then runs the loop and says what to keep.
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import { nonInteractiveReason } from './approval/policy.js';
import { askApproval } from './approval/prompt.js';
import type { AiHost } from './host.js';
import { resolveProjectProvider } from './project-provider.js';
import { ProviderError } from './providers/errors.js';
import { createChatProvider, providerSecrets } from './providers/create.js';
import type { ResolvedProvider } from './providers/resolve.js';
import type { ChatProvider } from './providers/types.js';
import { newSessionId, SESSION_SCHEMA_VERSION, writeSession, type SessionRecord } from './sessions/record.js';
import { skillSha256, type SkillContext } from './skills/index.js';
import { headerSecrets, oauthSecrets, redactSecrets, urlSecrets } from './secrets.js';
import type { AgentEvents } from './agent/loop.js';
import type { Approver } from './tools/call.js';
import type { ToolEntry } from './tools/types.js';

export interface AiSession {
  resolved: ResolvedProvider;
  /** Undefined when the provider cannot be built (no key, no script): see `setupError`. */
  provider?: ChatProvider;
  setupError?: ProviderError;
  approver: Approver;
  record: SessionRecord;
  secrets: string[];
  signal: AbortSignal;
  /** Notices raised while running (retries, fallback), for the command to show. */
  notices: Diagnostic[];
  /** Print a line on the terminal during the run (human mode only; no-op otherwise). */
  say(text: string): void;
  /** Mask every secret in a text meant for output. */
  redact(text: string): string;
  /** The same events with every text they carry masked of secrets (tool names, arguments, reasons). */
  redactEvents(events: AgentEvents): AgentEvents;
  /** Record the tools offered to the model. */
  offer(tools: readonly ToolEntry[]): void;
  /** Close the record (outcome), write it, release the provider and the Ctrl-C handler. */
  finish(outcome: SessionRecord['outcome'], extra?: Partial<SessionRecord>): Promise<{ id: string; file?: string; diagnostic?: Diagnostic }>;
}

export interface SessionOptions {
  /** Where status lines go (human mode); nothing is printed without it. */
  say?: (text: string) => void;
  /** The provider as the caller already resolved it: resolved once per command. */
  resolved?: ResolvedProvider;
}

export function openAiSession(command: string, sc: SkillContext, ctx: AiHost, options: SessionOptions = {}): AiSession {
  const resolved = options.resolved ?? resolveProjectProvider(sc, ctx.env);
  const secrets = providerSecrets(resolved, ctx.env);
  // Header values of active tool skills' servers hold tokens (`${NAME}` references and literal values,
  // the credential after `Bearer`), and so may a server URL: a server that echoes one in a tool result
  // must not hand it to the model.
  for (const s of sc.activation.active) {
    if (s.mcp === undefined) continue;
    secrets.push(...headerSecrets(s.mcp.headers, ctx.env), ...urlSecrets(s.mcp.url), ...oauthSecrets(s.mcp.oauth, ctx.env));
  }
  // Everything the command knows to be secret (sensitive config values, credential variables): the
  // model may repeat a value it saw, and a repeated value is masked like any other.
  for (const s of ctx.secrets) secrets.push(s);
  const redact = (text: string) => redactSecrets(text, secrets);
  const say = (text: string) => options.say?.(redact(text));
  const notices: Diagnostic[] = [];
  let provider: ChatProvider | undefined;
  let setupError: ProviderError | undefined;
  try {
    provider = createChatProvider(resolved, {
      env: ctx.env,
      secrets: () => secrets,
      events: {
        onRetry: ({ attempt, waitMs, error }) => say(`  (${error.message}; retry ${attempt} in ${(waitMs / 1000).toFixed(1)} s)`),
        onFallback: ({ from, to, error }) => {
          notices.push(diagnostic('AI014', redact(`${from} failed (${error.code}: ${error.message}); ${to} answered instead`)));
          say(`  (${from} failed; asking the fallback ${to})`);
        },
      },
    });
  } catch (err) {
    setupError = err instanceof ProviderError ? err : new ProviderError('config', (err as Error).message);
  }
  const controller = new AbortController();
  const onSigint = () => controller.abort(new ProviderError('cancelled', 'cancelled with Ctrl-C'));
  const releaseInterrupt = ctx.onInterrupt(onSigint);
  const now = ctx.now();
  const record: SessionRecord = {
    schema_version: SESSION_SCHEMA_VERSION,
    id: newSessionId(command, now),
    command,
    started_at: now.toISOString(),
    project_dir: sc.projectDir,
    workflow: sc.workflowPath ?? null,
    provider: { kind: resolved.kind, model: provider?.model ?? resolved.model ?? '', endpoint: provider?.endpoint ?? null },
    skills: sc.activation.active.map((s) => ({ name: s.name, scope: s.scope, path: s.path, sha256: skillSha256(s) ?? '' })),
    tools_offered: [],
    rounds: [],
    tool_calls: [],
    usage: { input_tokens: 0, output_tokens: 0 },
    outcome: { status: 'running' },
  };
  let reason: { value: string | undefined } | undefined;
  const approver: Approver = {
    // Worked out at the first tool call, not here: whether stdin is a terminal can cost node:tty's
    // load (about 8 ms), and a review whose model calls no tool never needs the answer.
    get nonInteractiveReason() {
      reason ??= { value: nonInteractiveReason({ env: ctx.env, json: ctx.json, get stdinIsTTY() { return ctx.stdinIsTTY; }, get stderrIsTTY() { return ctx.stderrIsTTY; } }) };
      return reason.value;
    },
    ask: (request) => askApproval(request, { input: ctx.stdin, output: ctx.stderr }),
    // `always` at the prompt lasts as long as this command: nothing is stored.
    allowed: new Set<string>(),
  };
  const session: AiSession = {
    resolved,
    approver,
    record,
    secrets,
    signal: controller.signal,
    notices,
    say,
    redact,
    redactEvents: (events) => ({
      ...events,
      ...(events.onToolCall ? { onToolCall: (call) => events.onToolCall!({ name: redact(call.name), args: redactArgs(call.args, redact) }) } : {}),
      ...(events.onToolResult ? { onToolResult: (r) => events.onToolResult!({ ...r, tool: redact(r.tool), reason: redact(r.reason) }) } : {}),
    }),
    offer: (tools) => {
      record.tools_offered = tools.map((t) => ({ name: t.name, origin: t.origin.kind === 'mcp' ? `mcp:${t.origin.server}` : 'builtin', read_only: t.gate.builtinReadOnly || (t.gate.readOnlyHint === true && t.gate.trustAnnotations) }));
    },
    finish: async (outcome, extra = {}) => {
      releaseInterrupt();
      await (provider as { close?: () => Promise<void> } | undefined)?.close?.();
      const ended = new Date();
      Object.assign(record, extra, { outcome, ended_at: ended.toISOString(), duration_ms: ended.getTime() - now.getTime() });
      record.usage = {
        input_tokens: record.rounds.reduce((n, r) => n + r.usage.input_tokens, 0),
        output_tokens: record.rounds.reduce((n, r) => n + r.usage.output_tokens, 0),
      };
      const written = writeSession(sc.projectDir, record, secrets);
      if (written.ok) return { id: record.id, file: written.file };
      return { id: record.id, diagnostic: diagnostic('SES002', redact(`the session record ${record.id} could not be written: ${written.message}`), { hint: `check that ${sc.projectDir}/.oxo-flow is writable` }) };
    },
  };
  if (provider) session.provider = provider;
  if (setupError) session.setupError = setupError;
  return session;
}

/** A provider failure as a diagnostic: its class's code, the (redacted) message and what to do. */
export function providerDiagnostic(error: ProviderError, redact: (t: string) => string, prefix = 'AI'): Diagnostic {
  return diagnostic(error.code, redact(`${prefix}: ${error.message}`), { hint: error.hint });
}

/** Arguments with secrets masked in every string (keys included); the shape stays as it was. */
function redactArgs(args: Record<string, unknown>, redact: (t: string) => string): Record<string, unknown> {
  const walk = (v: unknown): unknown =>
    typeof v === 'string' ? redact(v) : Array.isArray(v) ? v.map(walk) : v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [redact(k), walk(x)])) : v;
  return walk(args) as Record<string, unknown>;
}
