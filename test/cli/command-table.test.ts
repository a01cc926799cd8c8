// argv → the typed options each command function receives, from the one table (src/cli/command-table.ts).
import { describe, expect, it } from 'vitest';
import { commandName, type Parsed } from '../../src/cli/command-table.js';
import { buildProgram } from '../../src/cli/main.js';

/** Parse argv with the real program; return the command's name and what its options reader made. */
async function parse(...args: string[]): Promise<{ command: string; parsed: Parsed<unknown> }> {
  let out: { command: string; parsed: Parsed<unknown> } | undefined;
  const program = buildProgram('0.0.0', async (entry, raw) => {
    out = { command: commandName(entry.path), parsed: entry.options(raw) };
  });
  program.exitOverride();
  for (const c of program.commands) c.exitOverride();
  await program.parseAsync(['node', 'oxo-flow', ...args]);
  return out!;
}

const options = (o: unknown) => ({ ok: true, options: o });

describe('argv → typed options', () => {
  it.each<[string[], string, unknown]>([
    [['validate'], 'validate', { overrides: [], skill: [] }],
    [['validate', 'wf.oxoflow', '--ai', '--skill', 'a', '--skill', 'b'], 'validate', { workflow: 'wf.oxoflow', overrides: [], ai: true, skill: ['a', 'b'] }],
    [['validate', '--no-ai'], 'validate', { overrides: [], ai: false, skill: [] }],
    [
      ['validate', 'wf.oxoflow', 'ref=g.fa', '-d', 'proj', '--configfile', 'a.yaml', '--configfile', 'b.toml'],
      'validate',
      { workflow: 'wf.oxoflow', overrides: ['ref=g.fa'], directory: 'proj', configfile: ['a.yaml', 'b.toml'], skill: [] },
    ],
    [['lint', '--strict'], 'lint', { overrides: [], strict: true, skill: [] }],
    [['dry-run', 'wf.oxoflow', 'a=1', 'b=2', '-t', 'x', '--samples', 's1, s2'], 'dry-run', { workflow: 'wf.oxoflow', overrides: ['a=1', 'b=2'], target: ['x'], samples: ['s1', 's2'], skill: [], forcerun: [] }],
    [['dry-run'], 'dry-run', { overrides: [], target: [], skill: [], forcerun: [] }],
    [
      ['run', '-j', '4', '-k', '--forcerun', 'align', '--executor', 'slurm', '--partition', 'short', 'x=1'],
      'run',
      { workflow: 'x=1', overrides: [], target: [], skill: [], forcerun: ['align'], jobs: '4', keepGoing: true, executor: 'slurm', partition: 'short', record: true },
    ],
    [['graph', '-f', 'dot', '--expanded'], 'graph', { overrides: [], target: [], skill: [], format: 'dot', expanded: true }],
    [['template', 'hello-world', '-o', 'x.oxoflow', '--force'], 'template', { name: 'hello-world', output: 'x.oxoflow', force: true, fromFile: [], skill: [] }],
    [['init', 'proj'], 'init', { name: 'proj', template: 'hello-world' }],
    [['schema'], 'schema', {}],
    [['completions', 'zsh'], 'completions', { shell: 'zsh' }],
    [['ai'], 'ai status', { skill: [] }],
    [['ai', 'status', 'wf.oxoflow', '--check', '--all', '--project', 'p'], 'ai status', { workflow: 'wf.oxoflow', project: 'p', check: true, all: true, skill: [] }],
    [['ai', 'skills', 'list', '--all'], 'ai skills list', { all: true }],
    [['ai', 'skills', 'show', 'qc'], 'ai skills show', { name: 'qc' }],
    [['ai', 'skills', 'validate', 'dir'], 'ai skills validate', { path: 'dir' }],
    [['ai', 'skills', 'new', 'x', '--format', 'md'], 'ai skills new', { name: 'x', format: 'md' }],
    [['ai', 'tools', '--mcp', 'a=http://h/mcp'], 'ai tools', { mcp: ['a=http://h/mcp'], skill: [] }],
    [['ai', 'call', 'read_skill', 'wf.oxoflow', '--args', '{"name":"x"}'], 'ai call', { tool: 'read_skill', workflow: 'wf.oxoflow', args: '{"name":"x"}', mcp: [], skill: [] }],
  ])('%j → %s', async (argv, command, expected) => {
    expect(await parse(...argv)).toEqual({ command, parsed: options(expected) });
  });

  it.each([[['dry-run', '--samples', '']], [['dry-run', '--samples', 'a,,b']], [['graph', '--samples', ',']]])('%j is a usage error (CLI031)', async (argv) => {
    const { parsed } = await parse(...argv);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.diagnostics.map((d) => d.code)).toEqual(['CLI031']);
  });
});
