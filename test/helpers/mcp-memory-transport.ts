// An in-memory Transport for protocol tests without sockets: `serve` plays the server, answering
// each message the client sends by pushing messages back before `send` resolves.
import type { JsonRpcMessage } from '../../src/ai/mcp/messages.js';
import type { SendOptions, Transport } from '../../src/ai/mcp/transport.js';

export type Serve = (message: JsonRpcMessage, reply: (m: JsonRpcMessage) => void, options: SendOptions) => Promise<void> | void;

export class MemoryTransport implements Transport {
  onmessage?: (message: JsonRpcMessage) => void;
  readonly sent: JsonRpcMessage[] = [];
  sessionId: string | undefined = undefined;
  protocolVersion: string | undefined;
  closed = false;

  constructor(private readonly serve: Serve) {}

  async send(message: JsonRpcMessage, options: SendOptions = {}): Promise<void> {
    this.sent.push(message);
    await this.serve(message, (m) => this.onmessage?.(m), options);
  }
  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }
  resetSession(): void {
    this.sessionId = undefined;
  }
  async close(): Promise<void> {
    this.closed = true;
  }
}
