// One pipeline, many projects (issue 19), through the built CLI: the project directory is the current
// one (or -d), the pipeline's own files are found next to the workflow file, a read-only pipeline
// directory works, --configfile sets [config] (later files win, KEY=VALUE wins over files), a sheet
// path may come from config, a per-sample sheet loads with errors at its line and column, and a
// required config key passes validate but stops dry-run.
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, runCliJson } from '../helpers/run-cli.js';

const made: string[] = [];
afterAll(() => {
  for (const d of made) {
    chmodTree(d, true);
    rmSync(d, { recursive: true, force: true });
  }
});

function tempDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'oxo-projects-'));
  made.push(d);
  return d;
}

function write(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** chmod a tree read-only (or writable again); directories keep their x bit. */
function chmodTree(dir: string, writable: boolean): void {
  if (!existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) chmodTree(p, writable);
    else if (e.isFile()) chmodSync(p, writable ? 0o644 : 0o444);
  }
  chmodSync(dir, writable ? 0o755 : 0o555);
}

/** Every path under a directory, for "nothing was written here". */
function listing(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      out.push(`${path.relative(dir, p)} ${statSync(p).mtimeMs}`);
      if (e.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out.sort();
}

const PIPELINE = `[workflow]
name = "central"
description = "one pipeline for many projects"
author = "core facility"
samples_file = "{config.samplesheet}"

[config]
samplesheet = { type = "path", required = true, help = "the project's per-sample sheet" }
greeting = { default = "hi", choices = ["hi", "hello", "hey"] }
copies = 1

[[rules]]
name = "greet"
input = { reads = "{sample.fastq_1}" }
output = ["results/{sample}.txt"]
log = "logs/{sample}.log"
shell = "echo {config.greeting} {sample} {config.copies} {sample.condition} > {output} && cat {input.reads} >> {output} 2> {log}"

[[rules]]
name = "summary"
input = ["results/S1.txt", "results/S2.txt"]
output = ["results/summary.txt"]
script = "scripts/summary.sh"

[[rules]]
name = "where"
output = ["results/venv.txt"]
shell = "printf '%s' \\"$VIRTUAL_ENV\\" > {output}"
environment = { venv = "venv" }
`;

/** A pipeline directory (workflow, script, venv) and a project directory (sheet, data, config). */
function setup(): { pipe: string; project: string; root: string } {
  const root = tempDir();
  const pipe = path.join(root, 'srv', 'pipe');
  const project = path.join(root, 'projX');
  write(path.join(pipe, 'main.oxoflow'), PIPELINE);
  // The script ships with the pipeline and runs in the project directory.
  write(path.join(pipe, 'scripts', 'summary.sh'), 'cat results/S1.txt results/S2.txt > results/summary.txt\necho "ran in $PWD" >> results/summary.txt\n');
  const venv = spawnSync('python3', ['-m', 'venv', '--without-pip', path.join(pipe, 'venv')], { encoding: 'utf8' });
  if (venv.status !== 0) mkdirSync(path.join(pipe, 'venv', 'bin'), { recursive: true });
  write(path.join(project, 'raw', 'S1_R1.fq'), '@r1\nACGT\n+\nIIII\n');
  write(path.join(project, 'raw', 'S2_R1.fq'), '@r2\nTTTT\n+\nIIII\n');
  write(path.join(project, 'samplesheet.csv'), 'sample,fastq_1,condition\nS1,raw/S1_R1.fq,"ctrl; echo pwned"\nS2,raw/S2_R1.fq,treated\n');
  write(path.join(project, 'project.yaml'), 'samplesheet: samplesheet.csv\ngreeting: hello\n');
  return { pipe, project, root };
}

describe('the project directory is not the pipeline directory', () => {
  it('runs a read-only pipeline from a project folder: results, logs and state in the project, nothing next to the pipeline', () => {
    const { pipe, project } = setup();
    chmodTree(pipe, false);
    const before = listing(pipe);
    const r = runCli(['run', path.join(pipe, 'main.oxoflow'), '--configfile', 'project.yaml', '-j', '2'], { cwd: project });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(listing(pipe)).toEqual(before);
    // The sheet's cells reach the job as data: the condition cell with "; echo pwned" is one word.
    expect(readFileSync(path.join(project, 'results', 'S1.txt'), 'utf8')).toBe('hello S1 1 ctrl; echo pwned\n@r1\nACGT\n+\nIIII\n');
    expect(readFileSync(path.join(project, 'results', 'S2.txt'), 'utf8')).toContain('hello S2 1 treated');
    expect(existsSync(path.join(project, 'logs', 'S1.log'))).toBe(true);
    expect(existsSync(path.join(project, '.oxo-flow', 'state'))).toBe(true);
    expect(readdirSync(path.join(project, '.oxo-flow', 'runs')).length).toBe(1);
    // The script was found next to the workflow file, and ran in the project directory.
    expect(readFileSync(path.join(project, 'results', 'summary.txt'), 'utf8')).toContain(`ran in ${project}`);
    // The environment spec (a venv) was found next to the workflow file.
    expect(readFileSync(path.join(project, 'results', 'venv.txt'), 'utf8')).toBe(path.join(pipe, 'venv'));
    // Planned again from the same project: every job is up to date, the venv job too.
    const again = runCliJson(['dry-run', path.join(pipe, 'main.oxoflow'), '--configfile', 'project.yaml'], { cwd: project });
    const statuses = (again.json.jobs as { id: string; status: string }[]).map((j) => `${j.id} ${j.status}`).sort();
    expect(statuses).toEqual(['greet[sample=S1] skip', 'greet[sample=S2] skip', 'summary skip', 'where skip']);
    expect(listing(pipe)).toEqual(before);
  }, 120_000);

  it('{config.pipeline_dir} names a file the pipeline ships, in inputs and commands', () => {
    const { pipe, project } = setup();
    write(path.join(pipe, 'assets', 'header.txt'), '# shipped with the pipeline\n');
    write(
      path.join(pipe, 'assets.oxoflow'),
      '[workflow]\nname = "assets"\n\n[[rules]]\nname = "report"\ninput = ["{config.pipeline_dir}/assets/header.txt"]\noutput = ["results/report.txt"]\nshell = "cat {input} > {output} && echo {config.pipeline_dir} >> {output}"\n',
    );
    chmodTree(pipe, false);
    const wf = path.join(pipe, 'assets.oxoflow');
    expect(runCli(['validate', wf], { cwd: project }).code).toBe(0);
    const r = runCli(['run', wf], { cwd: project });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(path.join(project, 'results', 'report.txt'), 'utf8')).toBe(`# shipped with the pipeline\n${pipe}\n`);
  }, 60_000);

  it('-d/--directory names the project from anywhere; the workflow argument is found from the current directory', () => {
    const { pipe, project, root } = setup();
    chmodTree(pipe, false);
    const r = runCliJson(['dry-run', '-d', 'projX', 'srv/pipe/main.oxoflow', '--configfile', 'projX/project.yaml'], { cwd: root });
    expect(r.code, r.stderr).toBe(0);
    expect(r.json.project).toBe(project);
    const jobs = r.json.jobs as { id: string; inputs: string[]; env: Record<string, string> }[];
    const text = runCli(['dry-run', '-d', 'projX', 'srv/pipe/main.oxoflow', '--configfile', 'projX/project.yaml'], { cwd: root });
    expect(text.stderr.split('\n')[1]).toBe(`project: ${project} (data, results and .oxo-flow/ are read and written there)`);
    expect(jobs.find((j) => j.id === 'greet[sample=S1]')?.inputs).toEqual(['raw/S1_R1.fq']);
    // The sheet's path is shown relative to where the command runs.
    const bad = runCliJson(['validate', '--directory', 'projX', 'srv/pipe/main.oxoflow', 'samplesheet=missing.csv'], { cwd: root });
    expect(bad.code).toBe(1);
    expect(JSON.stringify(bad.json.diagnostics)).toContain('E039');
    expect(JSON.stringify(bad.json.diagnostics)).toContain('missing.csv');
    const run = runCli(['run', '-d', project, path.join(pipe, 'main.oxoflow'), 'samplesheet=samplesheet.csv', '-t', 'greet'], { cwd: root });
    expect(run.code, run.stderr).toBe(0);
    expect(existsSync(path.join(project, 'results', 'S2.txt'))).toBe(true);
    expect(existsSync(path.join(root, 'results'))).toBe(false);
    // runs and report read the same project with -d (or --project).
    const runs = runCliJson(['runs', '-d', 'projX'], { cwd: root });
    expect(runs.code, runs.stderr).toBe(0);
    expect((runs.json.runs as unknown[]).length).toBe(1);
    const report = runCliJson(['report', '-d', 'projX', '--format', 'json'], { cwd: root });
    expect(report.code, report.stderr).toBe(0);
    expect(String(report.json.file).startsWith(project)).toBe(true);
    const missing = runCliJson(['dry-run', '-d', 'nowhere', 'srv/pipe/main.oxoflow'], { cwd: root });
    expect(missing.code).toBe(2);
    expect(JSON.stringify(missing.json.diagnostics)).toContain('CLI033');
  }, 120_000);

  it('validate, lint and graph read the project too', () => {
    const { pipe, project } = setup();
    const wf = path.join(pipe, 'main.oxoflow');
    for (const command of ['validate', 'lint', 'graph']) {
      const r = runCli([command, wf, '--configfile', 'project.yaml'], { cwd: project });
      expect(r.code, `${command}: ${r.stderr}`).toBe(0);
    }
    const expanded = runCliJson(['graph', wf, '--expanded', 'samplesheet=samplesheet.csv'], { cwd: project });
    expect(JSON.stringify(expanded.json.nodes)).toContain('greet[sample=S2]');
  }, 60_000);
});

describe('--configfile', () => {
  it('later files win over earlier ones, and KEY=VALUE wins over files', () => {
    const { pipe, project } = setup();
    write(path.join(project, 'a.yaml'), 'samplesheet: samplesheet.csv\ngreeting: hello\ncopies: 2\n');
    write(path.join(project, 'b.toml'), 'greeting = "hey"\n');
    write(path.join(project, 'c.json'), '{ "copies": 3 }\n');
    const env = (args: string[]) => {
      const r = runCliJson(['dry-run', path.join(pipe, 'main.oxoflow'), ...args], { cwd: project });
      expect(r.code, r.stderr).toBe(0);
      return (r.json.jobs as { id: string; env: Record<string, string> }[]).find((j) => j.id === 'greet[sample=S1]')!.env;
    };
    expect(env(['--configfile', 'a.yaml'])).toMatchObject({ OXO_CONFIG_GREETING: 'hello', OXO_CONFIG_COPIES: '2' });
    expect(env(['--configfile', 'a.yaml', '--configfile', 'b.toml', '--configfile', 'c.json'])).toMatchObject({ OXO_CONFIG_GREETING: 'hey', OXO_CONFIG_COPIES: '3' });
    expect(env(['--configfile', 'b.toml', '--configfile', 'a.yaml'])).toMatchObject({ OXO_CONFIG_GREETING: 'hello' });
    expect(env(['greeting=hi', '--configfile', 'a.yaml', '--configfile', 'b.toml', 'copies=7'])).toMatchObject({ OXO_CONFIG_GREETING: 'hi', OXO_CONFIG_COPIES: '7' });
  }, 60_000);

  it('checks every value against its key, naming the file and the key (exit 2)', () => {
    const { pipe, project } = setup();
    const wf = path.join(pipe, 'main.oxoflow');
    const cases: [string, string, string, string[]][] = [
      ['unknown.yaml', 'samplesheet: samplesheet.csv\ngreting: hello\n', 'CLI012', ['unknown.yaml', 'greting', 'did you mean greeting?']],
      ['type.json', '{ "samplesheet": "samplesheet.csv", "copies": "two" }', 'CLI011', ['type.json', 'copies', 'expected an integer']],
      ['choice.toml', 'samplesheet = "samplesheet.csv"\ngreeting = "howdy"\n', 'CLI011', ['choice.toml', 'greeting', 'not one of the allowed choices']],
      ['broken.yaml', 'samplesheet: [unclosed\n', 'CLI032', ['broken.yaml', 'not valid YAML']],
      ['list.json', '[1, 2]', 'CLI032', ['list.json', 'not a table']],
      ['wrapped.toml', '[config]\nsamplesheet = "samplesheet.csv"\n', 'CLI012', ['wrapped.toml', 'under a `config` table']],
      ['nested.json', '{ "samplesheet": { "path": "x.csv" } }', 'CLI011', ['nested.json', 'samplesheet', 'expected a string (quote the value), got a table']],
      ['config.ini', 'x=1', 'CLI032', ['config.ini', '.toml, .json, .yaml or .yml']],
    ];
    for (const [file, text, code, words] of cases) {
      write(path.join(project, file), text);
      for (const command of ['validate', 'dry-run']) {
        const r = runCliJson([command, wf, '--configfile', file], { cwd: project });
        expect(r.code, `${command} ${file}: ${r.stdout}`).toBe(2);
        const d = (r.json.diagnostics as { code: string; message: string; file?: string; line?: number }[]).find((x) => x.code === code);
        expect(d, `${command} ${file}: ${JSON.stringify(r.json.diagnostics)}`).toBeDefined();
        for (const w of words) expect(d!.message + JSON.stringify(d)).toContain(w);
        expect(d!.file).toBe(file);
      }
    }
    // The line of the key in the file.
    const r = runCliJson(['validate', wf, '--configfile', 'unknown.yaml'], { cwd: project });
    expect((r.json.diagnostics as { line?: number }[])[0]!.line).toBe(2);
    const gone = runCliJson(['validate', wf, '--configfile', 'absent.yaml'], { cwd: project });
    expect(gone.code).toBe(2);
    expect(JSON.stringify(gone.json.diagnostics)).toContain('absent.yaml cannot be read: no such file');
  }, 120_000);
});

describe('sheet paths from config', () => {
  it('sample_groups_file and pairs_file take {config.x} from KEY=VALUE or a config file; an undeclared key is E005', () => {
    const root = tempDir();
    write(
      path.join(root, 'pipe', 'main.oxoflow'),
      `[workflow]\nname = "tn"\nsample_groups_file = "{config.groups}"\npairs_file = "sheets/{config.batch}_pairs.csv"\n\n[config]\ngroups = { required = true }\nbatch = "b1"\n\n` +
        `[[rules]]\nname = "call"\noutput = ["calls/{pair_id}.txt"]\nshell = "echo {experiment} {control} > {output}"\n\n` +
        `[[rules]]\nname = "qc"\noutput = ["qc/{sample}.txt"]\nshell = "echo {sample} {group} > {output}"\n`,
    );
    const project = path.join(root, 'proj');
    write(path.join(project, 'groups.tsv'), 'name\tsamples\ntumour\tT1,T2\n');
    write(path.join(project, 'sheets', 'b1_pairs.csv'), 'pair_id,experiment,control\nP1,T1,N1\n');
    write(path.join(project, 'sheets', 'b2_pairs.csv'), 'pair_id,experiment,control\nP2,T2,N2\n');
    write(path.join(project, 'b2.json'), '{ "batch": "b2", "groups": "groups.tsv" }');
    const wf = path.join(root, 'pipe', 'main.oxoflow');
    const ids = (args: string[]) => {
      const r = runCliJson(['dry-run', wf, ...args], { cwd: project });
      expect(r.code, r.stdout).toBe(0);
      return (r.json.jobs as { id: string }[]).map((j) => j.id);
    };
    const qc = ['qc[group=tumour,sample=T1]', 'qc[group=tumour,sample=T2]'];
    expect(ids(['groups=groups.tsv'])).toEqual(['call[control=N1,experiment=T1,pair_id=P1]', ...qc]);
    expect(ids(['--configfile', 'b2.json'])).toEqual(['call[control=N2,experiment=T2,pair_id=P2]', ...qc]);
    expect(ids(['--configfile', 'b2.json', 'batch=b1'])).toContain('call[control=N1,experiment=T1,pair_id=P1]');
    const missing = runCliJson(['dry-run', wf, 'groups=nope.tsv'], { cwd: project });
    expect(missing.code).toBe(1);
    expect(JSON.stringify(missing.json.diagnostics)).toContain('workflow.sample_groups_file \\"nope.tsv\\" (from \\"{config.groups}\\") cannot be read: no such file');
    write(path.join(root, 'pipe', 'bad.oxoflow'), '[workflow]\nname = "x"\nsamples_file = "{config.sheet}"\n');
    const undeclared = runCliJson(['validate', path.join(root, 'pipe', 'bad.oxoflow')], { cwd: project });
    expect(undeclared.code).toBe(1);
    expect(undeclared.json.diagnostics).toMatchObject([{ code: 'E005', line: 3, message: 'workflow.samples_file: {config.sheet} is not defined in [config]' }]);
  }, 60_000);
});

describe('a required config key', () => {
  it('passes validate (with a note naming it) and stops dry-run and run, naming the key', () => {
    const { pipe, project } = setup();
    const wf = path.join(pipe, 'main.oxoflow');
    const v = runCli(['validate', wf], { cwd: project });
    expect(v.code, v.stderr).toBe(0);
    expect(v.stderr).toContain('W028');
    expect(v.stderr).toContain('config.samplesheet');
    expect(runCli(['validate', wf, 'samplesheet=samplesheet.csv'], { cwd: project }).code).toBe(0);
    expect(runCli(['validate', wf, '--configfile', 'project.yaml'], { cwd: project }).code).toBe(0);
    const lint = runCliJson(['lint', wf], { cwd: project });
    expect(lint.code).toBe(0);
    expect(JSON.stringify(lint.json.diagnostics)).toContain('W028');
    for (const command of ['dry-run', 'run']) {
      const r = runCliJson([command, wf], { cwd: project });
      expect(r.code, `${command}: ${r.stdout}`).toBe(1);
      const codes = (r.json.diagnostics as { code: string; message: string }[]).map((d) => d.code);
      expect(codes).toEqual(['E037']);
      expect(JSON.stringify(r.json.diagnostics)).toContain('config.samplesheet');
    }
    expect(existsSync(path.join(project, 'results'))).toBe(false);
  }, 60_000);
});

describe('a per-sample sheet', () => {
  /** A project with this sheet; the pipeline reads it through `samples_file = "{config.samplesheet}"`. */
  function withSheet(name: string, text: string): { wf: string; project: string } {
    const { pipe, project } = setup();
    write(path.join(project, name), text);
    return { wf: path.join(pipe, 'main.oxoflow'), project };
  }
  const diagnostics = (wf: string, project: string, sheet: string) => {
    const r = runCliJson(['validate', wf, `samplesheet=${sheet}`], { cwd: project });
    return { code: r.code, diagnostics: r.json.diagnostics as { code: string; message: string; file?: string; line?: number; column?: number }[] };
  };

  it('loads groups from a group column (TSV), and {sample.COLUMN} in inputs', () => {
    const { wf, project } = withSheet('sheet.tsv', 'sample\tgroup\tfastq_1\tcondition\nS1\tctrl\traw/S1_R1.fq\tc\nS2\tkd\traw/S2_R1.fq\tt\n');
    const r = runCliJson(['dry-run', wf, 'samplesheet=sheet.tsv', '-t', 'greet'], { cwd: project });
    expect(r.code, r.stderr).toBe(0);
    const jobs = r.json.jobs as { id: string; inputs: string[]; script: string }[];
    expect(jobs.map((j) => j.id)).toEqual(['greet[sample=S1]', 'greet[sample=S2]']);
    expect(jobs[1]!.inputs).toEqual(['raw/S2_R1.fq']);
    expect(jobs[0]!.script).toContain('"${OXO_SAMPLE_CONDITION}"');
    expect(r.json.samples).toMatchObject({ count: 2 });
  }, 60_000);

  it('reports a duplicate sample at its line and column', () => {
    const { wf, project } = withSheet('dup.csv', 'fastq_1,sample,condition\nraw/S1_R1.fq,S1,c\nraw/S2_R1.fq,S1,t\n');
    const { code, diagnostics: d } = diagnostics(wf, project, 'dup.csv');
    expect(code).toBe(1);
    expect(d).toContainEqual(expect.objectContaining({ code: 'E039', file: 'dup.csv', line: 3, column: 14, message: 'sample "S1" is listed twice (first at line 2)' }));
  }, 60_000);

  it('reports a missing sample column at the header', () => {
    const { wf, project } = withSheet('nosample.csv', 'name,fastq_1,condition\nS1,raw/S1_R1.fq,c\n');
    const { code, diagnostics: d } = diagnostics(wf, project, 'nosample.csv');
    expect(code).toBe(1);
    const e = d.find((x) => x.code === 'E039')!;
    expect(e).toMatchObject({ file: 'nosample.csv', line: 1 });
    expect(e.message).toContain('no "sample" column');
  }, 60_000);

  it('reports a column a rule uses that the sheet lacks, at the placeholder, with a suggestion', () => {
    const { wf, project } = withSheet('nocol.csv', 'sample,fastq1,condition\nS1,raw/S1_R1.fq,c\n');
    const { code, diagnostics: d } = diagnostics(wf, project, 'nocol.csv');
    expect(code).toBe(1);
    const e = d.find((x) => x.code === 'E031')!;
    expect(e.message).toContain('{sample.fastq_1}');
    expect(e.message).toContain('has no column "fastq_1" (did you mean {sample.fastq1}?)');
  }, 60_000);

  it('reports an empty cell that a rule needs at its line and column, and accepts one no rule needs', () => {
    const { wf, project } = withSheet('empty.csv', 'sample,fastq_1,condition,notes\nS1,raw/S1_R1.fq,c,\nS2,,t,x\n');
    const { code, diagnostics: d } = diagnostics(wf, project, 'empty.csv');
    expect(code).toBe(1);
    expect(d.filter((x) => x.code === 'E034')).toEqual([
      expect.objectContaining({ file: 'empty.csv', line: 3, column: 4, message: 'sample "S2" has an empty fastq_1 cell, but rule "greet" uses {sample.fastq_1}' }),
    ]);
  }, 60_000);

  it('reports a cell that cannot be a file name at its line and column', () => {
    const { wf, project } = withSheet('bad.tsv', 'sample\tgroup\tfastq_1\tcondition\nS1\tctrl\traw/S1_R1.fq\tc\nsub/S2\tctrl\traw/S2_R1.fq\tt\nS3\t..\traw/S2_R1.fq\tt\n');
    const { code, diagnostics: d } = diagnostics(wf, project, 'bad.tsv');
    expect(code).toBe(1);
    expect(d).toContainEqual(expect.objectContaining({ code: 'E030', file: 'bad.tsv', line: 3, column: 1 }));
    expect(d.find((x) => x.code === 'E030' && x.line === 3)!.message).toContain('"sub/S2"');
    expect(d).toContainEqual(expect.objectContaining({ code: 'E030', file: 'bad.tsv', line: 4, column: 4 }));
  }, 60_000);

  it('reports an empty group cell and a row with the wrong number of cells', () => {
    const { wf, project } = withSheet('rows.csv', 'sample,group,fastq_1,condition\nS1,,raw/S1_R1.fq,c\nS2,g,raw/S2_R1.fq\n');
    const { code, diagnostics: d } = diagnostics(wf, project, 'rows.csv');
    expect(code).toBe(1);
    expect(d).toContainEqual(expect.objectContaining({ code: 'E039', line: 2, column: 4, message: 'sample "S1" has no group (its group cell is empty)' }));
    expect(d).toContainEqual(expect.objectContaining({ code: 'E039', line: 3, message: 'the row has 3 cells, the header 4' }));
  }, 60_000);
});
