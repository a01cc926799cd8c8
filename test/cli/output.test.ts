import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { decideColor, type CliContext } from '../../src/cli/context.js';
import { emitResult } from '../../src/cli/output.js';
import { renderDiagnostics } from '../../src/cli/render-diagnostics.js';
import { exitCodeFor } from '../../src/cli/result.js';
import { plainStyle } from '../../src/cli/style.js';
import { resolveWorkflowPath } from '../../src/cli/workflow-path.js';
import { diagnostic } from '../../src/diagnostics/diagnostic.js';

function sink(): Writable & { text: string } {
  const s = new Writable({
    write(chunk, _enc, cb) {
      s.text += String(chunk);
      cb();
    },
  }) as Writable & { text: string };
  s.text = '';
  return s;
}

function ctx(over: Partial<CliContext> = {}): CliContext {
  return {
    cwd: '/tmp',
    env: {},
    json: false,
    color: false,
    quiet: false,
    verbose: false,
    stdinIsTTY: false,
    stderrIsTTY: false,
    stdin: process.stdin,
    stderr: process.stderr,
    version: '0.0.0-test',
    now: () => new Date(0),
    secrets: new Set<string>(),
    onInterrupt: () => () => {},
    ...over,
  };
}

describe('exitCodeFor', () => {
  it.each([
    ['ok', 0],
    ['failed', 1],
    ['usage', 2],
    ['interrupted', 130],
  ] as const)('%s → %i', (outcome, code) => {
    expect(exitCodeFor(outcome)).toBe(code);
  });
});

describe('decideColor', () => {
  it.each([
    [{}, undefined, true, true],
    [{}, undefined, false, false],
    [{}, false, true, false],
    [{ NO_COLOR: '1' }, undefined, true, false],
    [{ FORCE_COLOR: '1' }, undefined, false, true],
    [{ FORCE_COLOR: '0' }, undefined, true, false],
    [{ NO_COLOR: '1', FORCE_COLOR: '1' }, undefined, true, false],
  ])('env %j flag %s tty %s → %s', (env, flag, tty, expected) => {
    expect(decideColor(env, flag, tty)).toBe(expected);
  });
});

describe('emitResult', () => {
  it('writes one JSON document on stdout and nothing on stderr with --json, failures included', () => {
    const out = sink();
    const err = sink();
    const code = emitResult(
      'validate',
      { outcome: 'failed', json: { valid: false }, diagnostics: [diagnostic('E001', 'workflow name is empty', { file: 'a.oxoflow', line: 2, column: 8 })] },
      ctx({ json: true }),
      { stdout: out, stderr: err },
      plainStyle,
    );
    expect(code).toBe(1);
    expect(err.text).toBe('');
    const doc = JSON.parse(out.text);
    expect(doc).toMatchObject({ schema_version: 1, command: 'validate', ok: false, exit_code: 1, valid: false });
    expect(doc.diagnostics[0]).toMatchObject({ code: 'E001', severity: 'error', line: 2, column: 8 });
    expect(doc.counts).toEqual({ error: 1, warning: 0, info: 0 });
  });

  it('writes human text to stderr and the product to stdout', () => {
    const out = sink();
    const err = sink();
    const code = emitResult('graph', { outcome: 'ok', json: {}, human: () => 'drawn', stdout: 'digraph {}\n' }, ctx(), { stdout: out, stderr: err }, plainStyle);
    expect(code).toBe(0);
    expect(out.text).toBe('digraph {}\n');
    expect(err.text).toBe('drawn\n');
  });

  it('shows only errors with --quiet', () => {
    const err = sink();
    emitResult(
      'lint',
      { outcome: 'ok', json: {}, diagnostics: [diagnostic('E001', 'an error'), diagnostic('E001', 'a warning', { severity: 'warning' })] },
      ctx({ quiet: true }),
      { stdout: sink(), stderr: err },
      plainStyle,
    );
    expect(err.text).toContain('an error');
    expect(err.text).not.toContain('a warning');
  });
});

describe('renderDiagnostics', () => {
  it('prints file:line:col, the source line and a caret under the column', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'oxo-render-'));
    writeFileSync(path.join(dir, 'w.oxoflow'), '[workflow]\nnmae = "x"\n');
    const text = renderDiagnostics(
      [diagnostic('E020', 'unknown key "nmae" in [workflow]', { file: 'w.oxoflow', line: 2, column: 1, hint: 'did you mean "name"?' })],
      plainStyle,
      dir,
    );
    expect(text).toBe(
      ['w.oxoflow:2:1: error E020: unknown key "nmae" in [workflow]', '   2 | nmae = "x"', '     | ^', '  hint: did you mean "name"?'].join('\n'),
    );
  });
});

describe('resolveWorkflowPath', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'oxo-wf-'));

  it('explains what it found when there is no workflow', () => {
    const r = resolveWorkflowPath(undefined, dir);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.diagnostic.code).toBe('CLI002');
      expect(r.diagnostic.hint).toContain('oxo-flow init');
    }
  });

  it('takes the only *.oxoflow, prefers main.oxoflow, refuses to guess between several', () => {
    writeFileSync(path.join(dir, 'a.oxoflow'), '');
    expect(resolveWorkflowPath(undefined, dir)).toEqual({ ok: true, path: path.join(dir, 'a.oxoflow') });
    writeFileSync(path.join(dir, 'b.oxoflow'), '');
    const several = resolveWorkflowPath(undefined, dir);
    expect(several.ok).toBe(false);
    if (!several.ok) expect(several.diagnostic.message).toContain('a.oxoflow, b.oxoflow');
    writeFileSync(path.join(dir, 'main.oxoflow'), '');
    expect(resolveWorkflowPath(undefined, dir)).toEqual({ ok: true, path: path.join(dir, 'main.oxoflow') });
  });

  it('accepts a directory argument and reports a missing file', () => {
    const sub = path.join(dir, 'sub');
    mkdirSync(sub);
    writeFileSync(path.join(sub, 'x.oxoflow'), '');
    expect(resolveWorkflowPath('sub', dir)).toEqual({ ok: true, path: path.join(sub, 'x.oxoflow') });
    const missing = resolveWorkflowPath('nope.oxoflow', dir);
    expect(missing.ok).toBe(false);
  });
});

describe('internal errors', () => {
  it('print the same JSON document as every result: diagnostics (CLI030) and counts included, exit 1', async () => {
    const { internalError } = await import('../../src/cli/main.js');
    const out = sink();
    const err = sink();
    const code = emitResult('dry-run', internalError('dry-run', new Error('boom'), ctx({ json: true })), ctx({ json: true }), { stdout: out, stderr: err }, plainStyle);
    expect(code).toBe(1);
    const doc = JSON.parse(out.text);
    expect(doc).toMatchObject({ command: 'dry-run', ok: false, exit_code: 1, internal_error: { message: 'boom' }, counts: { error: 1, warning: 0, info: 0 } });
    expect(doc.diagnostics[0].code).toBe('CLI030');
  });

  it('show the stack only with -v', async () => {
    const { internalError } = await import('../../src/cli/main.js');
    const e = new Error('boom');
    for (const verbose of [false, true]) {
      const err = sink();
      emitResult('lint', internalError('lint', e, ctx({ verbose })), ctx({ verbose }), { stdout: sink(), stderr: err }, plainStyle);
      expect(err.text).toContain('error CLI030: internal error in `oxo-flow lint`: boom.');
      expect(err.text.includes('at ')).toBe(verbose);
    }
  });
});

describe('secrets and terminal safety at the one exit point', () => {
  it('scrubs configured secrets from human output and from JSON (in their escaped form)', () => {
    const secrets = new Set(['s3cr"et-value']);
    const err = sink();
    emitResult('x', { outcome: 'ok', json: {}, human: () => 'token s3cr"et-value here' }, ctx({ secrets }), { stdout: sink(), stderr: err }, plainStyle);
    expect(err.text).toBe('token *** here\n');
    const out = sink();
    emitResult('x', { outcome: 'ok', json: { v: 'a s3cr"et-value b' } }, ctx({ json: true, secrets }), { stdout: out, stderr: sink() }, plainStyle);
    expect(JSON.parse(out.text).v).toBe('a *** b');
  });

  it('escapes controls left in human text and the stdout product; JSON keeps the exact text', () => {
    const err = sink();
    const out = sink();
    emitResult('x', { outcome: 'ok', json: {}, human: () => 'a\u001b[2Jb', stdout: 'c\u202ed\n' }, ctx(), { stdout: out, stderr: err }, plainStyle);
    expect(err.text).toBe('a\\x1b[2Jb\n');
    expect(out.text).toBe('c\\u202ed\n');
    const json = sink();
    emitResult('x', { outcome: 'ok', json: { name: 'a\u001b[2Jb' } }, ctx({ json: true }), { stdout: json, stderr: sink() }, plainStyle);
    expect(JSON.parse(json.text).name).toBe('a\u001b[2Jb');
  });
});
