// The last guard around a provider: no known secret (API keys, MCP header tokens, `sensitive = true`
// config values) goes to the model or comes back from it in clear. Outbound, the system prompt and
// every message (a tool result may echo an MCP server's token) are scrubbed; inbound, the answer and
// its streamed deltas, through a rolling window so a secret cut over several deltas is masked whole.
// Tool-call arguments are left as the model wrote them: the approval gate shows them, masked there.
import { redactSecrets, StreamRedactor } from '../secrets.js';
import type { ChatMessage, ChatProvider, ChatRequest, ChatResponse } from './types.js';

export class RedactingChat implements ChatProvider {
  constructor(
    private readonly inner: ChatProvider,
    /** Read at each request: a command may learn more secrets as it goes. */
    private readonly secrets: () => readonly string[],
  ) {}
  get kind() {
    return this.inner.kind;
  }
  get model() {
    return this.inner.model;
  }
  get endpoint() {
    return this.inner.endpoint;
  }

  async chat(request: ChatRequest): Promise<ChatResponse> {
    const secrets = this.secrets();
    if (secrets.length === 0) return this.inner.chat(request);
    const clean = (text: string) => redactSecrets(text, secrets);
    const messages = request.messages.map((m): ChatMessage => (m.role === 'assistant' && m.reasoning !== undefined ? { ...m, content: clean(m.content), reasoning: clean(m.reasoning) } : { ...m, content: clean(m.content) }));
    const shown = request.onText ? new StreamRedactor(secrets) : undefined;
    const emit = (text: string) => {
      if (text !== '') request.onText!(text);
    };
    const thinking = request.onReasoning ? new StreamRedactor(secrets) : undefined;
    const finish = () => {
      if (shown) emit(shown.flush());
      const rest = thinking?.flush();
      if (rest) request.onReasoning!(rest);
    };
    try {
      const response = await this.inner.chat({
        ...request,
        system: clean(request.system),
        messages,
        ...(shown ? { onText: (d: string) => emit(shown.push(d)) } : {}),
        ...(thinking
          ? {
              onReasoning: (d: string) => {
                const safe = thinking.push(d);
                if (safe !== '') request.onReasoning!(safe);
              },
            }
          : {}),
      });
      finish();
      return { ...response, text: clean(response.text), ...(response.reasoning !== undefined ? { reasoning: clean(response.reasoning) } : {}) };
    } catch (err) {
      finish();
      throw err;
    }
  }

  close(): Promise<void> {
    return (this.inner as { close?: () => Promise<void> }).close?.() ?? Promise.resolve();
  }
}
