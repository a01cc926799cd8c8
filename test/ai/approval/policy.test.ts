import { describe, expect, it } from 'vitest';
import { decideGate, nonInteractiveReason, type GateTool } from '../../../src/ai/approval/policy.js';

const builtin: GateTool = { builtinReadOnly: true, trustAnnotations: true };
const ro: GateTool = { builtinReadOnly: false, readOnlyHint: true, trustAnnotations: true };
const roUntrusted: GateTool = { builtinReadOnly: false, readOnlyHint: true, trustAnnotations: false };
const rw: GateTool = { builtinReadOnly: false, readOnlyHint: false, trustAnnotations: true };
const none: GateTool = { builtinReadOnly: false, trustAnnotations: true };

describe('decideGate', () => {
  it.each([
    ['built-in read-only, interactive', builtin, undefined, 'run'],
    ['built-in read-only, non-interactive', builtin, 'CI is set', 'run'],
    ['readOnlyHint true, interactive', ro, undefined, 'run'],
    ['readOnlyHint true, non-interactive', ro, '--json was given', 'run'],
    ['readOnlyHint true but untrusted, interactive', roUntrusted, undefined, 'ask'],
    ['readOnlyHint true but untrusted, non-interactive', roUntrusted, 'CI is set', 'refuse'],
    ['readOnlyHint false, interactive', rw, undefined, 'ask'],
    ['readOnlyHint false, non-interactive', rw, 'stdin is not a terminal', 'refuse'],
    ['no annotations, interactive', none, undefined, 'ask'],
    ['no annotations, non-interactive', none, 'stderr is not a terminal', 'refuse'],
  ] as const)('%s → %s', (_label, tool, reason, action) => {
    const d = decideGate(tool, reason);
    expect(d.action).toBe(action);
    if (d.action === 'refuse') expect(d.reason).toContain(reason!);
  });
});

describe('nonInteractiveReason', () => {
  const tty = { env: {}, json: false, stdinIsTTY: true, stderrIsTTY: true };
  it.each([
    [{}, undefined],
    [{ CI: '1' }, 'CI is set'],
    [{ CI: 'true' }, 'CI is set'],
    [{ CI: 'TRUE' }, 'CI is set'],
    [{ CI: 'false' }, undefined],
    [{ CI: '0' }, undefined],
    [{ CI: '' }, 'CI is set (CI=)'],
  ] as const)('env %j → %s', (env, expected) => {
    const r = nonInteractiveReason({ ...tty, env });
    if (expected === undefined) expect(r).toBeUndefined();
    else expect(r).toContain(expected);
  });
  it('--json, stdin and stderr', () => {
    expect(nonInteractiveReason({ ...tty, json: true })).toBe('--json was given');
    expect(nonInteractiveReason({ ...tty, stdinIsTTY: false })).toBe('stdin is not a terminal');
    expect(nonInteractiveReason({ ...tty, stderrIsTTY: false })).toBe('stderr is not a terminal');
  });
});
