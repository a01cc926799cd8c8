// Completion scripts are checked in the real shells: bash always (it is everywhere we run), zsh
// and fish when installed; without them, their text must still cover every command and flag.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, runCliJson } from '../helpers/run-cli.js';

const has = (shell: string) => spawnSync('sh', ['-c', `command -v ${shell}`]).status === 0;
let work: string;
const scripts: Record<string, string> = {};
beforeAll(() => {
  work = mkdtempSync(path.join(tmpdir(), 'oxo-completions-'));
  for (const shell of ['bash', 'zsh', 'fish']) {
    const r = runCli(['completions', shell]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    scripts[shell] = r.stdout;
    writeFileSync(path.join(work, `oxo.${shell}`), r.stdout);
  }
});
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** Complete the words (the last one being typed) in a real bash with the script sourced. */
function bashComplete(...words: string[]): string[] {
  const quoted = words.map((w) => `'${w}'`).join(' ');
  const r = spawnSync('bash', ['--norc', '--noprofile', '-c', `source ${path.join(work, 'oxo.bash')}; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _oxo_flow; printf '%s\\n' "\${COMPREPLY[@]}"`], {
    encoding: 'utf8',
  });
  expect(r.stderr).toBe('');
  return r.stdout.split('\n').filter(Boolean);
}

describe('bash completion', () => {
  it('is valid bash and registers itself for oxo-flow', () => {
    expect(spawnSync('bash', ['-n', path.join(work, 'oxo.bash')]).status).toBe(0);
    const r = spawnSync('bash', ['--norc', '-c', `source ${path.join(work, 'oxo.bash')}; complete -p oxo-flow`], { encoding: 'utf8' });
    expect(r.stdout).toContain('-F _oxo_flow oxo-flow');
  });

  it('completes commands, nested subcommands, flags and their values', () => {
    expect(bashComplete('oxo-flow', 'dr')).toEqual(['dry-run']);
    expect(bashComplete('oxo-flow', '')).toEqual(['validate', 'lint', 'dry-run', 'run', 'runs', 'report', 'graph', 'template', 'unlock', 'clean', 'init', 'schema', 'completions', 'ai']);
    expect(bashComplete('oxo-flow', 'ai', '')).toEqual(['status', 'skills', 'login', 'logout', 'tools', 'call', 'setup', 'sessions', 'lookup']);
    expect(bashComplete('oxo-flow', 'ai', 'lookup', '')).toEqual(['skill', 'pipeline']);
    expect(bashComplete('oxo-flow', 'ai', 'skills', 'v')).toEqual(['validate']);
    expect(bashComplete('oxo-flow', 'lint', '--st')).toEqual(['--strict']);
    expect(bashComplete('oxo-flow', 'dry-run', '--sa')).toEqual(['--samples']);
    expect(bashComplete('oxo-flow', 'graph', '-f', '')).toEqual(['ascii', 'dot', 'mermaid']);
    expect(bashComplete('oxo-flow', 'completions', 'f')).toEqual(['fish']);
    expect(bashComplete('oxo-flow', '--json', 'valid')).toEqual(['validate']);
  });

  it('offers template names where a template is expected', () => {
    expect(bashComplete('oxo-flow', 'template', 'rna')).toEqual(['rnaseq-quant']);
    expect(bashComplete('oxo-flow', 'init', 'proj', '-t', 'tumor')).toEqual(['tumor-normal']);
    expect(bashComplete('oxo-flow', 'init', 'proj', '--template', 'chip')).toEqual(['chipseq']);
  });

  it('leaves workflow paths and flag values to file completion', () => {
    expect(bashComplete('oxo-flow', 'validate', 'ma')).toEqual([]);
    // The value of -t is not mistaken for a subcommand name.
    expect(bashComplete('oxo-flow', 'dry-run', '-t', 'validate', '--q')).toEqual(['--quiet']);
  });
});

const commands = ['validate', 'lint', 'dry-run', 'graph', 'template', 'init', 'schema', 'completions', 'ai', 'skills', 'tools', 'call', 'lookup', 'pipeline'];
const flags = ['strict', 'target', 'samples', 'format', 'expanded', 'output', 'force', 'template', 'check', 'mcp', 'args', 'skill', 'json', 'no-color', 'quiet', 'verbose'];

describe('zsh completion', () => {
  it('covers every command and flag, with a #compdef header', () => {
    const text = scripts.zsh!;
    expect(text.startsWith('#compdef oxo-flow')).toBe(true);
    for (const c of commands) expect(text).toContain(`'${c}:`);
    for (const f of flags) expect(text).toContain(`'--${f}:`);
    expect(text).toContain("'graph|--format') reply=(ascii dot mermaid)");
  });

  it.runIf(has('zsh'))('parses in a real zsh and completes `oxo-flow dr`', () => {
    expect(spawnSync('zsh', ['-n', path.join(work, 'oxo.zsh')]).status).toBe(0);
    // Drive the completion function with stubbed completion builtins that print what they are given.
    const probe = `
      compdef() { :; }
      _describe() { local name=$4; print -l -- \${(P)name}; }
      compadd() { print -l -- \${reply}; }
      _files() { print FILES; }
      source ${path.join(work, 'oxo.zsh')}
      words=(oxo-flow dr); CURRENT=2; _oxo_flow
      words=(oxo-flow graph -f ''); CURRENT=4; _oxo_flow`;
    const r = spawnSync('zsh', ['-f', '-c', probe], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('dry-run:show the jobs');
    expect(r.stdout).toMatch(/ascii\ndot\nmermaid/);
  });
});

describe('fish completion', () => {
  it('covers every command and flag, each guarded by its command level', () => {
    const text = scripts.fish!;
    for (const c of commands) expect(text).toContain(`-a '${c}'`);
    for (const f of flags) expect(text).toContain(`-l ${f}`);
    expect(text).toMatch(/-n 'test \(__oxo_flow_level\) = \\'ai skills\\'' -f -a 'new'/);
  });

  it.runIf(has('fish'))('parses in a real fish and completes `oxo-flow dr`', () => {
    expect(spawnSync('fish', ['--no-execute', path.join(work, 'oxo.fish')]).status).toBe(0);
    const r = spawnSync('fish', ['--no-config', '-c', `source ${path.join(work, 'oxo.fish')}; complete -C 'oxo-flow dr'; complete -C 'oxo-flow ai skills '`], { encoding: 'utf8' });
    expect(r.stdout).toMatch(/^dry-run\t/m);
    expect(r.stdout).toMatch(/^list\t/m);
    expect(r.stdout).not.toMatch(/^validate\tcheck a workflow/m);
  });
});

describe('completions --json', () => {
  it('puts the script inside the one JSON document', () => {
    const r = runCliJson(['completions', 'bash']);
    expect(r.code).toBe(0);
    expect(r.json).toMatchObject({ command: 'completions', shell: 'bash' });
    expect(r.json.script).toBe(scripts.bash);
  });

  it('an unknown shell is a usage error', () => {
    const r = runCli(['completions', 'powershell']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('bash, zsh, fish');
  });
});
