// Issue "Safe to run" (commands built from data) and the engine items of the CLI-contract issue,
// each repro through the built CLI on real files.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCli, runCliJson } from '../helpers/run-cli.js';

function project(text: string | Buffer, files: Record<string, string> = {}): string {
  const dir = tempDir('oxo-safe-');
  writeFileSync(path.join(dir, 'main.oxoflow'), text);
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(dir, name), body);
  return dir;
}

const codesOf = (json: Record<string, unknown>) => (json.diagnostics as { code: string; line?: number }[]).map((d) => d.code);
type Job = { id: string; command: string; script: string; env: Record<string, string>; outputs: string[]; temp_outputs: string[]; protected_outputs: string[]; retries: number; time_limit_seconds: number | null };
const jobsOf = (json: Record<string, unknown>) => json.jobs as Job[];

/** validate, lint and dry-run on one project: exit codes and codes, so the three can be compared. */
function allThree(dir: string, extra: string[] = []) {
  return (['validate', 'lint', 'dry-run'] as const).map((cmd) => {
    const r = runCliJson(cmd === 'dry-run' ? [cmd, ...extra] : [cmd], { cwd: dir });
    return { cmd, code: r.code, codes: codesOf(r.json).filter((c) => /^E/.test(c)) };
  });
}

const HEAD = '[workflow]\nname = "t"\n\n';

describe('commands built from data', () => {
  it('hostile sample names reach the job as data; dry-run shows them quoted; validate and lint accept them', () => {
    const dir = project(`${HEAD}[[sample_groups]]\nname = "g"\nsamples = ["x; rm -rf ~", "$(id)"]\n\n[[rules]]\nname = "e"\noutput = ["o/{sample}.txt"]\nshell = "echo {sample} done > {output}"\n`);
    const r = runCliJson(['dry-run'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(jobsOf(r.json).map((j) => j.command)).toEqual(["echo 'x; rm -rf ~' done > 'o/x; rm -rf ~.txt'", "echo '$(id)' done > 'o/$(id).txt'"]);
    // What runs holds no value: the script refers to variables, the values come in its environment.
    const job = jobsOf(r.json)[1]!;
    expect(job.script).toBe('echo "${OXO_SAMPLE}" done > "${OXO_OUTPUT_0}"');
    expect(job.env).toEqual({ OXO_SAMPLE: '$(id)', OXO_OUTPUT_0: 'o/$(id).txt' });
    const run = spawnSync('sh', ['-c', `mkdir -p o && ${job.script} && cat 'o/$(id).txt'`], { cwd: dir, encoding: 'utf8', env: { PATH: process.env.PATH, ...job.env } });
    expect(run.stdout).toBe('$(id) done\n');
    expect(runCli(['validate'], { cwd: dir }).code).toBe(0);
  });

  it.each([
    ['a/b', 'contains "/"'],
    ['-rf', 'starts with "-"'],
    ['..', 'names a directory'],
  ])('refuses the sample name %j (E030) in validate, lint and dry-run alike', (name, why) => {
    const dir = project(`${HEAD}[[sample_groups]]\nname = "g"\nsamples = [${JSON.stringify(name)}]\n\n[[rules]]\nname = "e"\noutput = ["o/{sample}.txt"]\nshell = "touch {output}"\n`);
    for (const r of allThree(dir)) expect(r, r.cmd).toMatchObject({ code: 1, codes: ['E030'] });
    expect(runCli(['validate'], { cwd: dir }).stderr).toContain(why);
  });

  it('--samples with a path is refused, not planned outside the project', () => {
    const dir = project(`${HEAD}[[rules]]\nname = "e"\noutput = ["o/{sample}.txt"]\nshell = "touch {output}"\n`);
    const r = runCliJson(['dry-run', '--samples', '../../../tmp/x'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(codesOf(r.json)).toEqual(['E030']);
    expect(jobsOf(r.json)).toEqual([]);
  });

  it('names captured by sample_pattern are quoted, and one that starts with "-" is refused', () => {
    const wf = `[workflow]\nname = "t"\nsample_pattern = "raw/{sample}.fq"\n\n[[rules]]\nname = "e"\ninput = ["raw/{sample}.fq"]\noutput = ["o/{sample}.txt"]\nshell = "cat {input} > {output}"\n`;
    const dir = project(wf);
    mkdirSync(path.join(dir, 'raw'));
    writeFileSync(path.join(dir, 'raw', 'a;b$(id).fq'), '');
    const ok = runCliJson(['dry-run'], { cwd: dir });
    expect(ok.code).toBe(0);
    expect(jobsOf(ok.json)[0]!.command).toBe("cat 'raw/a;b$(id).fq' > 'o/a;b$(id).txt'");
    writeFileSync(path.join(dir, 'raw', '-rf.fq'), '');
    const bad = runCliJson(['dry-run'], { cwd: dir });
    expect(bad.code).toBe(1);
    expect(codesOf(bad.json)).toEqual(['E030']);
  });

  it('E011 is checked on the rendered command: target = "/" in the file, or target=/ on the command line', () => {
    const rule = '[[rules]]\nname = "clean"\noutput = ["done.txt"]\nshell = "rm -rf {config.target} && touch {output}"\n';
    const inFile = project(`${HEAD}[config]\ntarget = "/"\n\n${rule}`);
    for (const r of allThree(inFile)) expect(r, r.cmd).toMatchObject({ code: 1, codes: ['E011'] });
    const onLine = project(`${HEAD}[config]\ntarget = "tmp"\n\n${rule}`);
    expect(runCli(['validate'], { cwd: onLine }).code).toBe(0);
    const r = runCliJson(['dry-run', 'target=/'], { cwd: onLine });
    expect(r.code).toBe(1);
    expect(codesOf(r.json)).toEqual(['E011']);
    expect(runCli(['dry-run', 'target=tmp/x'], { cwd: onLine }).code).toBe(0);
  });

  it('a config value with ".." cannot plan outputs outside the project (E032)', () => {
    const dir = project(`${HEAD}[config]\nout = "../../x"\n\n[[rules]]\nname = "w"\noutput = ["{config.out}/r.txt"]\nshell = "touch {output}"\n`);
    for (const r of allThree(dir)) expect(r, r.cmd).toMatchObject({ code: 1, codes: ['E032'] });
    const override = runCliJson(['dry-run', 'out=results'], { cwd: dir });
    expect(override.code).toBe(0);
    expect(jobsOf(override.json)[0]!.outputs).toEqual(['results/r.txt']);
    expect(codesOf(runCliJson(['dry-run', 'out=/tmp/elsewhere'], { cwd: dir }).json)).toEqual(['E032']);
  });

  it('a sensitive config value is masked in dry-run (human and --json) and nowhere printed', () => {
    const secret = 'hunter2-SECRET-value';
    const dir = project(`${HEAD}[config]\ntoken = { default = "${secret}", sensitive = true }\n\n[[rules]]\nname = "fetch"\noutput = ["d.txt"]\nshell = "fetch --token {config.token} > {output}"\n`);
    const human = runCli(['dry-run'], { cwd: dir });
    expect(human.code).toBe(0);
    expect(human.stdout + human.stderr).not.toContain(secret);
    expect(human.stderr).toContain("fetch --token '***' > d.txt");
    const json = runCliJson(['dry-run'], { cwd: dir });
    expect(json.stdout).not.toContain(secret);
    expect(jobsOf(json.json)[0]!.command).toBe("fetch --token '***' > d.txt");
    expect(jobsOf(json.json)[0]!.script).toBe('fetch --token "${OXO_CONFIG_TOKEN}" > "${OXO_OUTPUT_0}"');
    expect(jobsOf(json.json)[0]!.env).toEqual({ OXO_CONFIG_TOKEN: '***', OXO_OUTPUT_0: 'd.txt' });
    // An override is as secret as the default.
    expect(runCli(['--json', 'dry-run', 'token=other-secret-123'], { cwd: dir }).stdout).not.toContain('other-secret-123');
  });

  it('CRLF line endings put no \\r into commands', () => {
    const dir = project(`${HEAD}[[rules]]\nname = "a"\noutput = ["o.txt"]\nshell = """\necho one\necho two > {output}\n"""\n`.replace(/\n/g, '\r\n'));
    const r = runCliJson(['dry-run'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(jobsOf(r.json)[0]!.command).toBe('echo one\necho two > o.txt\n');
  });

  it.each([
    ['{input[5]}', 'input = ["a.txt"]\noutput = ["o.txt"]\nshell = "cat {input[5]} > {output}"'],
    ['{output.missing}', 'output = { txt = "o.txt" }\nshell = "touch {output.missing}"'],
    ['{params.b}', 'output = ["o.txt"]\nparams = { a = 1 }\nshell = "x {params.b} > {output}"'],
    ['{log}', 'output = ["o.txt"]\nshell = "x > {output} 2> {log}"'],
    ['{unknown_thing}', 'output = ["o.txt"]\nshell = "x {unknown_thing} > {output}"'],
  ])('%s that cannot be filled is E031 with a position, in validate, lint and dry-run alike', (placeholder, fields) => {
    const dir = project(`${HEAD}[[rules]]\nname = "r"\n${fields}\n`);
    for (const r of allThree(dir)) expect(r, r.cmd).toMatchObject({ code: 1, codes: ['E031'] });
    const d = (runCliJson(['validate'], { cwd: dir }).json.diagnostics as { message: string; line: number; column: number }[])[0]!;
    expect(d.message).toContain(placeholder);
    expect(d.line).toBeGreaterThan(4);
    expect(d.column).toBeGreaterThan(1);
  });
});

describe('engine correctness', () => {
  it('depends_on naming the rule itself is a cycle (E006)', () => {
    const dir = project(`${HEAD}[[rules]]\nname = "a"\noutput = ["o.txt"]\nshell = "touch {output}"\ndepends_on = ["a"]\n`);
    for (const r of allThree(dir)) expect(r, r.cmd).toMatchObject({ code: 1, codes: ['E006'] });
  });

  it('a pair without a control is an error, never a silently dropped job or a literal placeholder', () => {
    const dir = project(
      `${HEAD}[[pairs]]\npair_id = "P1"\nexperiment = "T1"\ncontrol = "N1"\nexperiment_type = "wgs"\n\n[[pairs]]\npair_id = "P2"\nexperiment = "T2"\n\n` +
        '[[rules]]\nname = "call"\ninput = ["b/{experiment}.bam", "b/{control}.bam"]\noutput = ["v/{pair_id}.vcf"]\nshell = "call --type {experiment_type} {input} > {output}"\n',
    );
    const results = allThree(dir);
    for (const r of results) expect(r, r.cmd).toMatchObject({ code: 1 });
    // P2 lacks both the control and the experiment_type the rule uses: two findings, at the pair.
    expect(results[0]!.codes).toEqual(['E034', 'E034']);
  });

  it('values_from without config. is an error, not one literal value', () => {
    const dir = project(`${HEAD}[config]\nchroms = ["chr1", "chr2"]\n\n[[rules]]\nname = "s"\noutput = ["o/{c}.txt"]\nshell = "touch {output}"\nscatter = { variable = "c", values_from = "chroms" }\n`);
    const r = runCliJson(['validate'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(codesOf(r.json)).toEqual(['E035']);
    expect(runCli(['validate'], { cwd: dir }).stderr).toContain('values_from = "config.chroms"');
  });

  it('scatter values = [] fails validate (E036)', () => {
    const dir = project(`${HEAD}[[rules]]\nname = "s"\noutput = ["o/{c}.txt"]\nshell = "touch {output}"\nscatter = { variable = "c", values = [] }\n`);
    for (const r of allThree(dir)) expect(r, r.cmd).toMatchObject({ code: 1, codes: ['E036'] });
  });

  it('a boolean override must be true or false: on=yes is a usage error', () => {
    const dir = project(`${HEAD}[config]\non = false\n\n[[rules]]\nname = "a"\noutput = ["o.txt"]\nshell = "touch {output}"\nwhen = "config.on"\n`);
    const bad = runCliJson(['dry-run', 'on=yes'], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(codesOf(bad.json)).toEqual(['CLI011']);
    expect(runCli(['dry-run', 'on=true'], { cwd: dir }).code).toBe(0);
  });

  it('an input `index` waits for the rule whose output is the directory `index/`', () => {
    const dir = project(`${HEAD}[[rules]]\nname = "build"\noutput = ["index/"]\nshell = "mkdir -p {output}"\n\n[[rules]]\nname = "align"\ninput = ["index"]\noutput = ["a.bam"]\nshell = "align {input} > {output}"\n`);
    const r = runCliJson(['dry-run'], { cwd: dir });
    expect(r.code).toBe(0);
    expect((r.json.jobs as { id: string; depends_on: string[]; level: number }[]).map((j) => [j.id, j.level, j.depends_on])).toEqual([
      ['build', 0, []],
      ['align', 1, ['build']],
    ]);
  });

  it('invalid UTF-8 is refused with E033 at its line, never read as U+FFFD', () => {
    const dir = project(Buffer.concat([Buffer.from(`${HEAD}[[rules]]\nname = "a"\noutput = ["o`), Buffer.from([0xff, 0xfe]), Buffer.from('.txt"]\nshell = "touch {output}"\n')]));
    const r = runCliJson(['validate'], { cwd: dir });
    expect(r.code).toBe(2);
    expect(r.json.diagnostics).toMatchObject([{ code: 'E033', line: 6, column: 13 }]);
  });

  it('memory = "99999999999T" is E004, not an absurd memory_mb', () => {
    const dir = project(`${HEAD}[[rules]]\nname = "a"\noutput = ["o.txt"]\nshell = "touch {output}"\nmemory = "99999999999T"\n`);
    for (const r of allThree(dir)) expect(r, r.cmd).toMatchObject({ code: 1, codes: ['E004'] });
  });

  it('validate reports every independent problem in one run', () => {
    const dir = project(`${HEAD}[config]\nref = "g.fa"\n\n[[rules]]\nname = "a"\nthreads = "8"\noutput = ["o.txt"]\nshell = "bwa {config.rf} > {output}"\n`);
    const r = runCliJson(['validate'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(codesOf(r.json).sort()).toEqual(['E005', 'E024']);
  });

  it('a required config key with no value is noted by validate at the key (W028, exit 0), and stops dry-run there (E037)', () => {
    const dir = project(`${HEAD}[config]\nref = { required = true, help = "genome" }\n\n[[rules]]\nname = "a"\noutput = ["o.txt"]\nshell = "bwa {config.ref} > {output}"\n`);
    const v = runCliJson(['validate'], { cwd: dir });
    expect(v.code).toBe(0);
    expect(v.json.diagnostics).toMatchObject([{ code: 'W028', line: 5 }]);
    const d = runCliJson(['dry-run'], { cwd: dir });
    expect(d.json.diagnostics).toMatchObject([{ code: 'E037', line: 5 }]);
    expect(runCli(['dry-run', 'ref=g.fa'], { cwd: dir }).code).toBe(0);
  });
});
