import type { CodeInfo } from '../code-info.js';

const doc = 'docs/ai.md';

/**
 * The AI layer: the `--ai` review notices, provider failures by class (each says what to do),
 * the agent loop, `template --ai`, `ai setup` and session records (SES).
 */
export const aiCodes = {
  AI001: { severity: 'info', title: 'AI review skipped: no AI provider is configured', doc },
  AI003: { severity: 'error', title: 'the provider refused the API key (authentication)', hint: 'check the API key (ai status shows where it comes from), or run `oxo-flow ai setup`', doc },
  AI004: { severity: 'error', title: 'the provider is rate limiting (HTTP 429) past the retries', hint: 'wait and try again, or declare a fallback provider in ai_config.json', doc },
  AI005: { severity: 'error', title: 'the request is larger than the model’s context window', hint: 'activate fewer skills, or pick a model with a larger context window', doc },
  AI006: { severity: 'error', title: 'the answer hit the output token limit', hint: 'try again, or pick a model with a larger output limit', doc },
  AI007: { severity: 'error', title: 'the provider cannot be reached (network)', hint: 'check the network and the base URL; for Ollama, is `ollama serve` running?', doc },
  AI008: { severity: 'error', title: 'the provider did not answer in time (connect, first byte or a stalled stream)', hint: 'try again, or raise "timeouts" in ai_config.json', doc },
  AI009: { severity: 'error', title: 'the provider had a server error (HTTP 5xx) past the retries', hint: 'try again later, or declare a fallback provider in ai_config.json', doc },
  AI010: { severity: 'error', title: 'the provider’s answer is not in the expected wire format', hint: 'check the provider kind and base URL', doc },
  AI011: { severity: 'error', title: 'the provider rejected the request (unknown model, wrong URL, bad parameter)', hint: 'check the model name and base URL (`oxo-flow ai status`)', doc },
  AI012: { severity: 'error', title: 'the AI request was cancelled', doc },
  AI013: { severity: 'error', title: 'the provider is not usable as configured', hint: 'run `oxo-flow ai setup`, or see `oxo-flow ai status`', doc },
  AI014: { severity: 'warning', title: 'the primary provider failed; the fallback provider answered', doc },
  AI015: { severity: 'warning', title: 'the model used every round (max_rounds) without a final answer', doc },
  AI020: { severity: 'error', title: 'template --ai: no draft validated within max_rounds; nothing was written', hint: 'rephrase the intent, add a skill with --skill, or raise max_rounds', doc },
  AI022: { severity: 'error', title: 'template --ai: a --from-file file cannot be read', doc },
  AI030: { severity: 'error', title: 'ai setup: a value is missing or not valid', doc },
  AI031: { severity: 'error', title: 'ai setup: ai_config.json cannot be written', doc },
  AI040: { severity: 'error', title: 'the provider account has no credit left (HTTP 402, insufficient balance or quota)', hint: 'top up the account or raise its quota with the provider, or declare a fallback provider in ai_config.json', doc },
  SES001: { severity: 'error', title: 'no AI session with this id', hint: 'list them with `oxo-flow ai sessions`', doc },
  SES002: { severity: 'warning', title: 'the AI session record could not be written', doc },
  SES003: { severity: 'warning', title: 'an AI session record cannot be read', doc },
} as const satisfies Record<string, CodeInfo>;

export type AiCode = keyof typeof aiCodes;
