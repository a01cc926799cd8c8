// The protocol layer: request ids, matching responses to pending requests, deadlines (reset by
// progress, capped), notifications/cancelled on expiry, and answers to server requests (ping → {},
// those the client handles (elicitation, when a person is there) → its answer, anything else →
// -32601). While a person answers a server request, the deadlines of our requests wait. Knows no HTTP.
import type * as z from 'zod/mini';
import { McpFailure } from './failure.js';
import {
  isRequest,
  isResponse,
  responseError,
  type JsonRpcMessage,
  type JsonRpcNotification,
  type JsonRpcRequest,
  type RequestId,
  mcpSchemas,
} from './messages.js';
import type { Transport } from './transport.js';

export interface Progress {
  progress: number;
  total?: number;
  message?: string;
}

export interface RequestOptions {
  /** Deadline without progress. */
  timeoutMs: number;
  /** Hard cap even while progress keeps arriving (default 10 × timeoutMs). */
  maxTotalMs?: number;
  /** initialize must never be cancelled (spec), so it gets no notifications/cancelled. */
  cancellable?: boolean;
  onprogress?: (p: Progress) => void;
}

interface Pending {
  method: string;
  settle: (outcome: { ok: true; result: Record<string, unknown> } | { ok: false; error: Error }) => void;
  touch: () => void;
  onprogress?: (p: Progress) => void;
}

/** Time allowed for fire-and-forget messages (cancellations, answers to server requests). */
const SIDE_MESSAGE_TIMEOUT_MS = 5_000;

export class JsonRpcSession {
  private nextId = 1;
  private readonly pending = new Map<RequestId, Pending>();
  /** Server notifications other than progress (logging, list_changed, …). */
  onnotification?: (n: JsonRpcNotification) => void;
  /** Server requests the client handles (by method); others get -32601 at once. */
  handlers: Record<string, (params: Record<string, unknown> | undefined) => Promise<Record<string, unknown>>> = {};
  /** Server requests being answered (by a person): our own deadlines do not run out meanwhile. */
  private answering = 0;

  constructor(private readonly transport: Transport) {
    transport.onmessage = (m) => this.receive(m);
  }

  get pendingCount(): number {
    return this.pending.size;
  }

  /** The requests still waiting for an answer. */
  inflight(): { id: RequestId; method: string }[] {
    return [...this.pending].map(([id, p]) => ({ id, method: p.method }));
  }

  /** Send a request and validate its result with the caller's schema. Rejects with McpFailure. */
  request<S extends z.ZodMiniType>(method: string, params: Record<string, unknown> | undefined, schema: S, options: RequestOptions): Promise<z.output<S>> {
    const id = this.nextId++;
    const withMeta = options.onprogress !== undefined || options.maxTotalMs !== undefined;
    const message: JsonRpcRequest = { jsonrpc: '2.0', id, method };
    // The request id doubles as the progress token: unique among our in-flight requests.
    if (params !== undefined || withMeta) message.params = withMeta ? { ...params, _meta: { progressToken: id } } : { ...params };
    const controller = new AbortController();
    const started = Date.now();
    const maxTotal = options.maxTotalMs ?? options.timeoutMs * 10;

    return new Promise<z.output<S>>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const finish = (outcome: { ok: true; result: Record<string, unknown> } | { ok: false; error: Error }) => {
        if (!this.pending.has(id)) return;
        this.pending.delete(id);
        clearTimeout(timer);
        if (!outcome.ok) {
          reject(outcome.error);
          return;
        }
        const parsed = schema.safeParse(outcome.result);
        if (parsed.success) resolve(parsed.data);
        else reject(new McpFailure('MCP007', `the server's ${method} result does not match the MCP schema: ${firstIssue(parsed.error)}`));
      };
      const expire = () => {
        if (this.answering > 0) return arm();
        const seconds = Math.round((Date.now() - started) / 100) / 10;
        const error = new McpFailure('MCP003', `${method} got no answer within ${seconds} s${options.cancellable === false ? '' : '; the request was cancelled'}`);
        finish({ ok: false, error });
        controller.abort(error);
        if (options.cancellable !== false) void this.notify('notifications/cancelled', { requestId: id, reason: `timed out after ${seconds} s` }, SIDE_MESSAGE_TIMEOUT_MS).catch(() => undefined);
      };
      const arm = () => {
        clearTimeout(timer);
        const left = Math.min(options.timeoutMs, maxTotal - (Date.now() - started));
        timer = setTimeout(expire, Math.max(0, left));
      };
      const entry: Pending = { method, settle: finish, touch: arm };
      if (options.onprogress !== undefined) entry.onprogress = options.onprogress;
      this.pending.set(id, entry);
      arm();
      this.transport.send(message, { signal: controller.signal, awaitIds: [id] }).then(
        () => finish({ ok: false, error: new McpFailure('MCP008', `the server ended its reply to ${method} without sending the response`) }),
        (err: unknown) => finish({ ok: false, error: err instanceof Error ? err : new Error(String(err)) }),
      );
    });
  }

  /** Send a notification and wait for the server to accept it (202). */
  async notify(method: string, params?: Record<string, unknown>, timeoutMs = SIDE_MESSAGE_TIMEOUT_MS): Promise<void> {
    const message: JsonRpcNotification = { jsonrpc: '2.0', method };
    if (params !== undefined) message.params = params;
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      await this.transport.send(message, { signal });
    } catch (err) {
      if (signal.aborted) throw new McpFailure('MCP003', `${method} was not accepted within ${timeoutMs / 1000} s`);
      throw err;
    }
  }

  /** Fail every pending request (the connection is going away). */
  failAll(error: Error): void {
    for (const p of [...this.pending.values()]) p.settle({ ok: false, error });
  }

  private receive(m: JsonRpcMessage): void {
    if (isResponse(m)) {
      const p = m.id === null ? undefined : this.pending.get(m.id);
      if (p === undefined) return; // a late answer to a request we already gave up on
      const error = responseError(m);
      if (error !== undefined) {
        p.settle({ ok: false, error: new McpFailure('MCP020', `the server answered ${p.method} with error ${error.code}: ${error.message}`, undefined, error.code) });
      } else {
        p.settle({ ok: true, result: (m as { result: Record<string, unknown> }).result });
      }
      return;
    }
    if (isRequest(m)) {
      this.answerServerRequest(m);
      return;
    }
    if (m.method === 'notifications/progress') {
      const parsed = mcpSchemas().ProgressParamsSchema.safeParse(m.params);
      const p = parsed.success ? this.pending.get(parsed.data.progressToken) : undefined;
      if (p !== undefined && parsed.success) {
        p.touch();
        const { progress, total, message } = parsed.data;
        p.onprogress?.({ progress, ...(total !== undefined ? { total } : {}), ...(message !== undefined ? { message } : {}) });
      }
      return;
    }
    this.onnotification?.(m);
  }

  private answerServerRequest(m: JsonRpcRequest): void {
    // Never leave a server request unanswered: the server's tool call may be blocked on it.
    const send = (reply: JsonRpcMessage) => void this.transport.send(reply, { signal: AbortSignal.timeout(SIDE_MESSAGE_TIMEOUT_MS) }).catch(() => undefined);
    const handler = Object.hasOwn(this.handlers, m.method) ? this.handlers[m.method] : undefined;
    if (m.method === 'ping' || handler === undefined) {
      send(m.method === 'ping' ? { jsonrpc: '2.0', id: m.id, result: {} } : { jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `Method not found: this client does not support ${m.method}` } });
      return;
    }
    this.answering++;
    handler(m.params)
      .then(
        (result) => send({ jsonrpc: '2.0', id: m.id, result }),
        (err: unknown) => send({ jsonrpc: '2.0', id: m.id, error: { code: -32603, message: `the client could not answer ${m.method}: ${(err as Error)?.message ?? String(err)}` } }),
      )
      .finally(() => {
        this.answering--;
        // The person's time does not count against the calls that waited for them.
        for (const p of this.pending.values()) p.touch();
      });
  }
}

function firstIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'invalid';
  const where = issue.path.length > 0 ? issue.path.join('.') : '(root)';
  return `${where}: ${issue.message}`;
}
