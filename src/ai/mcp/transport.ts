// A transport moves JSON-RPC messages and nothing else: it knows HTTP (or memory), never MCP
// methods. The protocol layer (jsonrpc.ts) owns ids, pending requests and timeouts.
import type { JsonRpcMessage } from './messages.js';

export interface SendOptions {
  /** Aborts the underlying exchange (timeouts, cancellation). */
  signal?: AbortSignal;
  /** Resolve as soon as these request ids are answered, even if the server keeps the stream open. */
  awaitIds?: readonly (string | number)[];
  /** Extra headers of this one exchange (never the transport's own). */
  headers?: Record<string, string>;
}

export interface Transport {
  /**
   * Send one message. Anything the server sends back on this exchange (responses, server requests,
   * notifications) is delivered through `onmessage` before the promise resolves. Rejects with an
   * McpFailure on transport errors.
   */
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void>;
  /** Set by the protocol layer. */
  onmessage?: (message: JsonRpcMessage) => void;
  /** Session id taken from a successful initialize, if the server issued one. */
  readonly sessionId: string | undefined;
  /** Called by the client once the version is negotiated; sent as MCP-Protocol-Version from then on. */
  setProtocolVersion(version: string): void;
  /** Forget the session (before a re-initialisation). */
  resetSession(): void;
  /**
   * Open the server's optional stream for messages outside any request (GET with Accept:
   * text/event-stream): notifications such as tools/list_changed and server requests arrive there.
   * Never throws; a server without one (405) is fine.
   */
  listen?(): void;
  /** End the session (DELETE) and release connections. Never throws. */
  close(): Promise<void>;
}
