// The agent loop's limits, with the real scripted provider: max_rounds counts answers (drafts), tool
// rounds have their own cap, and the events fire in the order the command line shows them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runAgent } from '../../../src/ai/agent/loop.js';
import { ScriptedChat } from '../../../src/ai/providers/scripted.js';
import type { SessionRecord } from '../../../src/ai/sessions/record.js';
import { lookupTools } from '../../../src/ai/tools/lookup.js';

function provider(responses: unknown[]): ScriptedChat {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'oxo-loop-')), 'script.json');
  writeFileSync(file, JSON.stringify({ responses }));
  return new ScriptedChat('script', file);
}

const session = () => ({ rounds: [], tool_calls: [] }) as unknown as SessionRecord;
const tools = lookupTools();
const toolSet = { tools, find: (n: string) => tools.find((t) => t.name === n) };
const approver = { nonInteractiveReason: 'CI is set (CI=1)', ask: async () => 'no' as const };
const stats = { tool_calls: [{ name: 'lookup_pipeline', arguments: { action: 'stats' } }] };

describe('agent loop limits', () => {
  it('tool rounds do not count against max_rounds: three tool rounds, then the one allowed answer', async () => {
    const events: string[] = [];
    const out = await runAgent({
      system: 's',
      user: 'u',
      provider: provider([stats, stats, stats, { text: 'the answer' }]),
      tools: toolSet,
      approver,
      maxRounds: 1,
      stream: false,
      session: session(),
      events: {
        onRequest: (round) => events.push(`request ${round}`),
        onResponse: (round) => events.push(`response ${round}`),
        onToolCall: (call) => events.push(`call ${call.name}`),
        onToolResult: (record) => events.push(`result ${record.decision}`),
      },
    });
    expect(out).toMatchObject({ status: 'answered', text: 'the answer', rounds: 4, answers: 1 });
    expect(events.slice(0, 4)).toEqual(['request 1', 'response 1', 'call lookup_pipeline', 'result auto']);
    expect(events.at(-1)).toBe('response 4');
  });

  it('a model that only calls tools stops at the tool-round cap', async () => {
    const out = await runAgent({ system: 's', user: 'u', provider: provider(Array.from({ length: 10 }, () => stats)), tools: toolSet, approver, maxRounds: 5, maxToolRounds: 3, stream: false, session: session() });
    expect(out).toMatchObject({ status: 'round_limit', limit: 'tool_rounds', rounds: 3, answers: 0 });
  });

  it('rejected answers count: the judge gets answer numbers and the loop stops after max_rounds of them', async () => {
    const seen: number[] = [];
    const out = await runAgent({
      system: 's',
      user: 'u',
      provider: provider([{ text: 'a' }, stats, { text: 'b' }, { text: 'c' }]),
      tools: toolSet,
      approver,
      maxRounds: 2,
      stream: false,
      session: session(),
      judge: (_text, answer) => (seen.push(answer), { accept: false, feedback: 'again' }),
    });
    expect(seen).toEqual([1, 2]);
    expect(out).toMatchObject({ status: 'round_limit', limit: 'answers', rounds: 3, answers: 2 });
  });
});
