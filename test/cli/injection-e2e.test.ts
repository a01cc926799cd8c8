// The repros of the injection audit, end to end through the built CLI on real files with real jobs:
// each gives a coded error, or a run whose job receives the hostile value as data; none creates
// the canary. (The destructive one is only validated and planned, never run.)
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCliJson } from '../helpers/run-cli.js';

const HEAD = '[workflow]\nname = "t"\n\n';
// A fresh analysis cache: the parser itself runs, as on a first run.
const cacheHome = mkdtempSync(path.join(tmpdir(), 'oxo-cache-'));
const env = { XDG_CACHE_HOME: cacheHome };

function project(text: string): string {
  const dir = tempDir('oxo-inject-');
  writeFileSync(path.join(dir, 'main.oxoflow'), text);
  return dir;
}

const codesOf = (json: Record<string, unknown>) => (json.diagnostics as { code: string }[]).map((d) => d.code).filter((c) => /^E/.test(c));

/** A workflow with one config value `v` (TOML-quoted here) and one rule writing out.txt with `shell`. */
function oneRule(value: string, shell: string): string {
  return `${HEAD}[config]\nv = ${JSON.stringify(value)}\n\n[[rules]]\nname = "r"\noutput = ["out.txt"]\nshell = ${JSON.stringify(shell)}\n`;
}

describe('the audit repros through the built CLI', () => {
  const harmless: [string, string, (v: string) => string][] = [
    ['a here-document body', 'cat > {output} <<EOF\nsample {config.v}\nEOF', (v) => `sample ${v}\n`],
    ["a line after a comment with a quote", "# remove the sample's scratch copy\nprintf '%s\\n' {config.v} > {output}", (v) => `${v}\n`],
    ['$( … ) inside double quotes', 'printf \'%s\\n\' "$(printf \'%s\' {config.v})" > {output}', (v) => `${v}\n`],
    ['backticks inside double quotes', 'printf \'%s\\n\' "`printf \'%s\' {config.v}`" > {output}', (v) => `${v}\n`],
  ];

  it.each(harmless)('%s: the job gets the value as data', (_what, shell, expected) => {
    const dir = project('');
    const canary = path.join(dir, 'PWNED');
    const value = `x'"; $(touch ${canary}) \`touch ${canary}\` '; touch ${canary}; '`;
    writeFileSync(path.join(dir, 'main.oxoflow'), oneRule(value, shell));
    const r = runCliJson(['run', '-j', '1'], { cwd: dir, env });
    expect(r.code, r.stdout).toBe(0);
    expect(readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe(expected(value));
    expect(existsSync(canary)).toBe(false);
  });

  it('the value from a KEY=VALUE override reaches the job as data too', () => {
    const dir = project(oneRule('plain', 'cat > {output} <<EOF\n{config.v}\nEOF'));
    const value = '$(touch PWNED)\nEOF\ntouch PWNED\nEOF';
    const r = runCliJson(['run', '-j', '1', `v=${value}`], { cwd: dir, env });
    expect(r.code, r.stdout).toBe(0);
    expect(readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe(`${value}\n`);
    expect(existsSync(path.join(dir, 'PWNED'))).toBe(false);
  });

  it('a sensitive value reaches the job in its environment, and no output, log or state file', () => {
    const secret = 'hunter2-SECRET-value';
    const dir = project(`${HEAD}[config]\ntoken = { default = "${secret}", sensitive = true }\n\n[[rules]]\nname = "r"\noutput = ["out.txt"]\nshell = "printf '%s' {config.token} > {output}"\n`);
    const r = runCliJson(['run', '-j', '1'], { cwd: dir, env });
    expect(r.code, r.stdout).toBe(0);
    expect(readFileSync(path.join(dir, 'out.txt'), 'utf8')).toBe(secret);
    expect(r.stdout + r.stderr).not.toContain(secret);
    const stateFiles = (sub: string): string[] =>
      readdirSync(path.join(dir, '.oxo-flow', sub), { recursive: true, withFileTypes: true })
        .filter((e) => e.isFile())
        .map((e) => path.join(e.parentPath, e.name));
    for (const f of [...stateFiles('logs'), ...stateFiles('state')]) expect(readFileSync(f, 'utf8'), f).not.toContain(secret);
  });

  it('a hostile file name found by sample_pattern is copied as a file name, never run', () => {
    const dir = project(`${HEAD.replace('name = "t"', 'name = "t"\nsample_pattern = "raw/{sample}.fq"')}[[rules]]\nname = "copy"\ninput = ["raw/{sample}.fq"]\noutput = ["out/{sample}.txt"]\nshell = "mkdir -p out && cp {input} {output}"\n`);
    mkdirSync(path.join(dir, 'raw'));
    const name = "S2$(touch${IFS}PWNED)`touch${IFS}PWNED2`;x";
    writeFileSync(path.join(dir, 'raw', `${name}.fq`), 'reads\n');
    const dry = runCliJson(['dry-run'], { cwd: dir, env });
    const job = (dry.json.jobs as { script: string; env: Record<string, string> }[])[0]!;
    expect(job.script).toBe('mkdir -p out && cp "${OXO_INPUT_0}" "${OXO_OUTPUT_0}"');
    expect(job.env).toEqual({ OXO_INPUT_0: `raw/${name}.fq`, OXO_OUTPUT_0: `out/${name}.txt` });
    const r = runCliJson(['run', '-j', '1'], { cwd: dir, env });
    expect(r.code, r.stdout).toBe(0);
    expect(readFileSync(path.join(dir, 'out', `${name}.txt`), 'utf8')).toBe('reads\n');
    expect(existsSync(path.join(dir, 'PWNED'))).toBe(false);
    expect(existsSync(path.join(dir, 'PWNED2'))).toBe(false);
  });

  it.each([
    ["inside single quotes", "printf '%s\\n' '{config.v}' > {output}", 'E041'],
    ['single quotes inside $( … ) inside double quotes', 'echo "$(printf \'%s\' \'{config.v}\')" > {output}', 'E041'],
    ['a quoted here-document', "cat > {output} <<'EOF'\n{config.v}\nEOF", 'E041'],
    ['arithmetic', 'echo $(( {config.v} + 1 )) > {output}', 'E041'],
    ['eval', 'eval {config.v} > {output}', 'E041'],
    ['a command that does not parse', 'echo "open > {output}', 'E042'],
  ])('%s: validate, dry-run and run refuse it with %s, and nothing runs', (_what, shell, code) => {
    const dir = project(oneRule('$(touch PWNED)', shell));
    for (const cmd of [['validate'], ['dry-run'], ['run', '-j', '1']]) {
      const r = runCliJson(cmd, { cwd: dir, env });
      expect(r.code, `${cmd[0]}: ${r.stdout}`).toBe(1);
      expect(codesOf(r.json), cmd[0]).toContain(code);
    }
    expect(existsSync(path.join(dir, 'out.txt'))).toBe(false);
    expect(existsSync(path.join(dir, 'PWNED'))).toBe(false);
  });

  it.each([
    ['outdir = "/"', '/', []],
    ['outdir = ""', '', []],
    ['outdir=/ on the command line', 'results', ['outdir=/']],
  ])('rm -rf {config.outdir}/* with %s is E011 in validate (from the file) and dry-run', (_what, value, overrides) => {
    const dir = project(`${HEAD}[config]\noutdir = ${JSON.stringify(value)}\n\n[[rules]]\nname = "clean"\nshell = "rm -rf {config.outdir}/*"\n`);
    const dry = runCliJson(['dry-run', ...overrides], { cwd: dir, env });
    expect(dry.code).toBe(1);
    expect(codesOf(dry.json)).toContain('E011');
    if (overrides.length === 0) expect(codesOf(runCliJson(['validate'], { cwd: dir, env }).json)).toContain('E011');
  });

  it('a sample named "~" is refused (E030) before rm -rf {sample} could be planned', () => {
    const dir = project(`${HEAD}[[rules]]\nname = "clean"\nshell = "rm -rf {sample}"\n`);
    const r = runCliJson(['dry-run', '--samples', '~'], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(codesOf(r.json)).toEqual(['E030']);
  });
});
