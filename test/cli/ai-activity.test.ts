// What the command line shows while the model works, with a clock the test sets (no timing): the
// spinner only on a terminal, with who, the elapsed time and the tokens once known; the tool-call
// lines everywhere, refusals with their code and reason, untrusted text made terminal-safe.
import { describe, expect, it } from 'vitest';
import { aiActivity } from '../../src/cli/ai-activity.js';
import { plainStyle } from '../../src/cli/style.js';

function activity(terminal: boolean) {
  let out = '';
  let clock = 1_000;
  const a = aiActivity({ write: (t) => (out += t), style: plainStyle, terminal, who: 'the model', now: () => clock });
  return { a, out: () => out, tick: (ms: number) => (clock += ms) };
}

const refused = { tool: 'mcp_db_drop', origin: undefined, args: {}, decision: 'refused' as const, reason: 'approval cannot be asked: CI is set (CI=1)', output: { isError: true, text: 'call refused' }, refusal: { code: 'APR001' as const } };

describe('ai activity', () => {
  it('on a terminal: the spinner names who thinks, the elapsed time and the tokens so far, and clears its line', () => {
    const { a, out, tick } = activity(true);
    a.setWho('openai/gpt-x');
    a.events.onRequest!(2, { inputTokens: 100, outputTokens: 20 });
    expect(out()).toContain('openai/gpt-x is thinking · 0.0 s · 120 tokens so far');
    a.events.onResponse!(2, { inputTokens: 150, outputTokens: 30 });
    expect(out().endsWith('\r\u001b[K')).toBe(true);
    // A status line clears a running spinner first.
    a.events.onRequest!(3, { inputTokens: 150, outputTokens: 30 });
    tick(2_500);
    a.line('  (rate limited; retry 1 in 2.0 s)');
    expect(out().endsWith('\r\u001b[K  (rate limited; retry 1 in 2.0 s)\n')).toBe(true);
  });

  it('not on a terminal (CI logs): no spinner, but every tool call and its refusal', () => {
    const { a, out } = activity(false);
    a.events.onRequest!(1, { inputTokens: 0, outputTokens: 0 });
    a.events.onToolCall!({ name: 'mcp_db_drop\u001b[2J', args: { table: 'x\u202e' } });
    a.events.onToolResult!(refused);
    a.events.onResponse!(1, { inputTokens: 0, outputTokens: 0 });
    expect(out()).not.toContain('thinking');
    expect(out()).not.toContain('\r');
    expect(out()).toContain('→ mcp_db_drop\\x1b[2J {"table":"x\\u202e"}');
    expect(out()).toContain('✗ refused (APR001): approval cannot be asked: CI is set (CI=1)');
  });

  it('a long argument list is cut to one line in the tool-call line (the approval prompt shows it whole)', () => {
    const { a, out } = activity(false);
    a.events.onToolCall!({ name: 'validate_workflow', args: { toml: 'x'.repeat(5_000) } });
    const line = out().split('\n')[0]!;
    expect(line.length).toBeLessThan(140);
    expect(line.endsWith('…')).toBe(true);
  });
});
