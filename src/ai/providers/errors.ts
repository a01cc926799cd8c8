// Provider failures, classified so a user knows what to do. Each class has a stable code
// (AI003…AI012) and a hint; messages are redacted of the key before they are built.
import type { AiCode } from '../../diagnostics/codes/ai.js';

export type ProviderErrorClass =
  | 'auth'
  | 'rate_limit'
  | 'context_overflow'
  | 'output_limit'
  | 'network'
  | 'timeout'
  | 'server'
  | 'malformed'
  | 'request'
  | 'cancelled'
  | 'config'
  | 'balance';

export const ERROR_CLASS_INFO: Record<ProviderErrorClass, { code: AiCode; hint: string; retriable: boolean }> = {
  auth: { code: 'AI003', hint: 'check the API key (ai status shows where it comes from), or run `oxo-flow ai setup`', retriable: false },
  rate_limit: { code: 'AI004', hint: 'wait and try again, lower your request rate, or declare a fallback provider in ai_config.json', retriable: true },
  context_overflow: { code: 'AI005', hint: 'the request is larger than the model accepts: activate fewer skills, or pick a model with a larger context window', retriable: false },
  output_limit: { code: 'AI006', hint: 'the answer hit the output token limit; try again, or pick a model with a larger output limit', retriable: false },
  network: { code: 'AI007', hint: 'check the network and the base URL (ai status shows it); for Ollama, is `ollama serve` running?', retriable: true },
  timeout: { code: 'AI008', hint: 'the provider did not answer in time; try again, or raise "timeouts" in ai_config.json', retriable: true },
  server: { code: 'AI009', hint: 'the provider had a server error; try again later, or declare a fallback provider in ai_config.json', retriable: true },
  malformed: { code: 'AI010', hint: 'the server does not speak this wire format: check the provider kind and base URL', retriable: false },
  request: { code: 'AI011', hint: 'the provider rejected the request: check the model name (ai status) and the base URL', retriable: false },
  cancelled: { code: 'AI012', hint: 'cancelled by the user', retriable: false },
  config: { code: 'AI013', hint: 'run `oxo-flow ai setup`, or see `oxo-flow ai status`', retriable: false },
  balance: { code: 'AI040', hint: 'the account has no credit left: top it up (or raise its quota) with the provider, or declare a fallback provider in ai_config.json', retriable: false },
};

export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    readonly errorClass: ProviderErrorClass,
    message: string,
    /** HTTP status, when the server answered. */
    readonly status?: number,
    /** Retry-After in ms, when the server gave one. */
    readonly retryAfterMs?: number,
  ) {
    super(message);
  }
  get code(): AiCode {
    return ERROR_CLASS_INFO[this.errorClass].code;
  }
  get hint(): string {
    return ERROR_CLASS_INFO[this.errorClass].hint;
  }
  get retriable(): boolean {
    return ERROR_CLASS_INFO[this.errorClass].retriable;
  }
}

const CONTEXT_OVERFLOW = /context[_ ]length|context window|maximum context|prompt is too long|too many tokens|input is too long|reduce the length/i;

/** The class of an HTTP error answer, from its status and the provider's own error type and message. */
const NO_CREDIT = /insufficient[_ ](balance|quota|credit|funds)|billing|credit balance|out of credit/i;

export function classifyHttpError(status: number, errorType: string, message: string): ProviderErrorClass {
  // 402 Payment Required (DeepSeek "Insufficient Balance"); OpenAI says insufficient_quota, with a 429.
  if (status === 402 || NO_CREDIT.test(errorType) || NO_CREDIT.test(message)) return 'balance';
  if (status === 401 || status === 403 || /authentication|permission|invalid_api_key/i.test(errorType)) return 'auth';
  if (status === 429 || /rate_limit/i.test(errorType)) return 'rate_limit';
  if (CONTEXT_OVERFLOW.test(errorType) || CONTEXT_OVERFLOW.test(message)) return 'context_overflow';
  if (status === 529 || status >= 500 || /overloaded|server_error|api_error/i.test(errorType)) return 'server';
  return 'request';
}
