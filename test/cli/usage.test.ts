import { describe, expect, it } from 'vitest';
import { runCli, runCliJson } from '../helpers/run-cli.js';

describe('command-line usage errors', () => {
  it('an unknown command exits 2 with a suggestion, in JSON too', () => {
    const human = runCli(['valdate']);
    expect(human.code).toBe(2);
    expect(human.stderr).toContain('error CLI001: unknown command');
    expect(human.stderr).toContain('did you mean validate?');
    expect(human.stdout).toBe('');
    const json = runCliJson(['valdate']);
    expect(json.code).toBe(2);
    expect(json.json).toMatchObject({ command: 'valdate', ok: false, exit_code: 2 });
  });

  it('an unknown option exits 2', () => {
    const r = runCli(['validate', '--frobnicate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("unknown option '--frobnicate'");
  });

  it('an invalid choice exits 2 and names the allowed values', () => {
    const r = runCli(['graph', '-f', 'svg']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('ascii, dot, mermaid');
  });

  it('no command prints the help on stderr and exits 2; --help and --version exit 0', () => {
    const none = runCli([]);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: oxo-flow');
    const help = runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('dry-run');
    const version = runCli(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it('a command group without its subcommand shows that group’s help and exits 2', () => {
    const r = runCli(['ai', 'skills']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('Usage: oxo-flow ai skills');
  });
});
