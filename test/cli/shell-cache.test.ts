// The on-disk store of shell analyses: an entry serves exactly its own text, a malformed or
// mismatched entry is worked out again, and what it gives the engine equals a fresh analysis.
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cacheDirectory, diskAnalysisStore } from '../../src/cli/shell-cache.js';
import { analyseShell, setAnalysisStore, type ShellAnalysis } from '../../src/workflow/render/shell-contexts.js';
import { compileTemplate } from '../../src/workflow/render/template.js';
import { runCli } from '../helpers/run-cli.js';

afterEach(() => setAnalysisStore(undefined));

/** A text no other test analyses, so the in-process memo does not answer first. */
let n = 0;
const fresh = (body: string) => `${body} # ${process.pid}-${Date.now()}-${n++}`;

describe('the shell analysis store', () => {
  it('lives under XDG_CACHE_HOME or ~/.cache, per analysis version', () => {
    expect(cacheDirectory({ XDG_CACHE_HOME: '/c', HOME: '/h' })).toMatch(/^\/c\/oxo-flow\/shell-v\d+$/);
    expect(cacheDirectory({ XDG_CACHE_HOME: 'relative', HOME: '/h' })).toMatch(/^\/h\/\.cache\/oxo-flow\/shell-v\d+$/);
    expect(cacheDirectory({})).toBeUndefined();
  });

  it('keeps an analysis for its exact text only, in files only the user can read', () => {
    const dir = path.join(mkdtempSync(path.join(tmpdir(), 'oxo-store-')), 'shell');
    const store = diskAnalysisStore(dir);
    setAnalysisStore(store);
    const text = fresh("echo '{sample}' {input}");
    const first = analyseShell(text, compileTemplate(text));
    expect(first.refused.map((r) => r.raw)).toEqual(['{sample}']);
    const [file] = readdirSync(dir);
    expect(statSync(path.join(dir, file!)).mode & 0o777).toBe(0o600);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(store.get(text)).toEqual(JSON.parse(JSON.stringify(first)));
    expect(store.get(`${text} `)).toBeUndefined();
  });

  it('an entry that does not fit the text (wrong count, unknown context, wrong offset, not JSON) is worked out again', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'oxo-store-'));
    const store = diskAnalysisStore(dir);
    setAnalysisStore(store);
    const bad: unknown[] = [
      { contexts: ['words', 'words'], refused: [] },
      { contexts: ['run-it'], refused: [] },
      { contexts: [null], refused: [{ ref: 0, at: 99, raw: '{config.n}', why: 'x', hint: 'y' }] },
      'not an analysis',
    ];
    for (const analysis of bad) {
      const text = fresh('echo $(( {config.n} + 1 ))');
      store.set(text, analysis as ShellAnalysis);
      const got = analyseShell(text, compileTemplate(text));
      expect(got.refused.map((r) => [r.raw, r.at]), JSON.stringify(analysis)).toEqual([['{config.n}', 9]]);
      expect(got.contexts).toEqual([undefined]);
    }
    const text = fresh('echo {config.n}');
    writeFileSync(path.join(dir, 'garbage.json'), 'not json');
    expect(analyseShell(text, compileTemplate(text)).contexts).toEqual(['words']);
  });
});

describe('the built CLI', () => {
  // `run` lives in the second bundle, which carries its own copy of the render modules; the store the
  // core's main() sets must reach that copy too (src/process-state.ts).
  it('`run` (second bundle) writes to and reads from the store the CLI sets up', () => {
    const project = mkdtempSync(path.join(tmpdir(), 'oxo-store-run-'));
    const cache = mkdtempSync(path.join(tmpdir(), 'oxo-store-xdg-'));
    const command = `echo {config.word} > {output} # ${process.pid}-${Date.now()}`;
    writeFileSync(path.join(project, 'main.oxoflow'), `[workflow]\nname = "store"\n\n[config]\nword = "hello"\n\n[[rules]]\nname = "say"\noutput = ["said.txt"]\nshell = ${JSON.stringify(command)}\n`);
    const env = { XDG_CACHE_HOME: cache };
    const run = runCli(['run', '-q'], { cwd: project, env });
    expect(run.code, run.stderr).toBe(0);
    expect(readFileSync(path.join(project, 'said.txt'), 'utf8')).toBe('hello\n');
    const dir = cacheDirectory(env)!;
    const entries = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(entries).toHaveLength(1);
    // An entry of the same shape that refuses the placeholder: a `run` that reads the store refuses it.
    const file = path.join(dir, entries[0]!);
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { text: string; analysis: ShellAnalysis };
    const at = command.indexOf('{config.word}');
    entry.analysis = { ...entry.analysis, contexts: entry.analysis.contexts.map((c, k) => (k === 0 ? undefined : c)), refused: [{ ref: 0, at, raw: '{config.word}', why: 'refused by the stored entry', hint: 'none' }] };
    writeFileSync(file, JSON.stringify(entry));
    const again = runCli(['run', '-q', '--forcerun', 'say'], { cwd: project, env });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('refused by the stored entry');
  });
});
