// Issue 19, format features, through the built CLI on real files with real jobs: placeholders in
// params values and option lists (each element its own argument, hostile values kept as data),
// per-group fan-in, script rules reading their job from the environment and a JSON file, and
// E031 for placeholder spellings oxo-flow does not have.
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCliJson } from '../helpers/run-cli.js';
import { requireTools } from '../helpers/tools.js';

const HEAD = '[workflow]\nname = "t"\n\n';

function project(text: string, files: Record<string, string> = {}): string {
  const dir = tempDir('oxo-format-');
  writeFileSync(path.join(dir, 'main.oxoflow'), text);
  for (const [name, body] of Object.entries(files)) writeFileSync(path.join(dir, name), body);
  return dir;
}

type Diag = { code: string; message: string; hint?: string; line?: number; column?: number };
const diagsOf = (json: Record<string, unknown>) => json.diagnostics as Diag[];
const errorsOf = (json: Record<string, unknown>) => diagsOf(json).filter((d) => /^E/.test(d.code));
type Job = { id: string; command: string; script: string; env: Record<string, string>; inputs: string[] };
const jobsOf = (json: Record<string, unknown>) => json.jobs as Job[];
const read = (dir: string, file: string) => readFileSync(path.join(dir, file), 'utf8');

describe('placeholders in params, option lists', () => {
  const canary = 'PWNED';
  const text =
    `${HEAD}[config]\nplatform = "ILLUMINA"\n\n[[sample_groups]]\nname = "g"\nsamples = ["S1", "x y"]\n\n[[rules]]\nname = "align"\noutput = ["out/{sample}.txt"]\nthreads = 2\n` +
    // A read-group string with a tab escape, an option list with a placeholder in an element, and a
    // hostile element that must stay one argument of data.
    `params = { rg = "@RG\\\\tID:{sample}\\\\tSM:{sample}\\\\tPL:{config.platform}", opts = ["--threads", "{threads}", "--tag", "{sample}", "$(touch ${canary})", "a b"], n = 3 }\n` +
    `shell = "printf '[%s]\\\\n' {params.rg} {params.opts} {params.n} > {output}"\n`;

  it('dry-run fills each value per job; the script holds only references, one per option', () => {
    const dir = project(text);
    const r = runCliJson(['dry-run'], { cwd: dir });
    expect(r.code, r.stdout).toBe(0);
    const job = jobsOf(r.json).find((j) => j.id === 'align[sample=x y]')!;
    expect(job.script).toBe(
      `printf '[%s]\\n' "\${OXO_PARAMS_RG}" "\${OXO_PARAMS_OPTS_0}" "\${OXO_PARAMS_OPTS_1}" "\${OXO_PARAMS_OPTS_2}" "\${OXO_PARAMS_OPTS_3}" "\${OXO_PARAMS_OPTS_4}" "\${OXO_PARAMS_OPTS_5}" "\${OXO_PARAMS_N}" > "\${OXO_OUTPUT_0}"`,
    );
    expect(job.env).toMatchObject({
      OXO_PARAMS_RG: '@RG\\tID:x y\\tSM:x y\\tPL:ILLUMINA',
      OXO_PARAMS_OPTS_1: '2',
      OXO_PARAMS_OPTS_3: 'x y',
      OXO_PARAMS_OPTS_4: '$(touch PWNED)',
      OXO_PARAMS_N: '3',
    });
  });

  it('run gives each element as its own argument, hostile ones as data, and config overrides reach params', () => {
    const dir = project(text);
    const r = runCliJson(['run', '-j', '1', 'platform=$(touch PWNED)'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(read(dir, 'out/S1.txt')).toBe('[@RG\\tID:S1\\tSM:S1\\tPL:$(touch PWNED)]\n[--threads]\n[2]\n[--tag]\n[S1]\n[$(touch PWNED)]\n[a b]\n[3]\n');
    expect(read(dir, 'out/x y.txt')).toContain('[x y]\n');
    expect(existsSync(path.join(dir, canary))).toBe(false);
  });

  it('an option list inside "…" is E050 at that placeholder; a string value there is one word', () => {
    const dir = project(`${HEAD}[[rules]]\nname = "r"\noutput = ["o.txt"]\nparams = { opts = ["-a", "-b"], one = "-a -b" }\nshell = "echo {params.opts} \\"{params.opts}\\" \\"{params.one}\\" > {output}"\n`);
    for (const cmd of ['validate', 'lint', 'dry-run']) {
      const r = runCliJson([cmd], { cwd: dir });
      expect(r.code, cmd).toBe(1);
      const e = errorsOf(r.json);
      expect(e.map((d) => d.code), cmd).toEqual(['E050']);
      expect(e[0]!.column).toBe(31); // the second one, inside the quotes
      expect(e[0]!.message).toContain('inside "…"');
    }
  });

  it('a name nothing fills in a params value, or a path there, is E031 at the value', () => {
    const dir = project(`${HEAD}[[rules]]\nname = "r"\ninput = ["i.txt"]\noutput = ["o.txt"]\nparams = { rg = "ID:{smaple}", p = ["{input}"] }\nshell = "echo {params.rg} {params.p} > {output}"\n`);
    const r = runCliJson(['validate'], { cwd: dir });
    expect(r.code).toBe(1);
    const e = errorsOf(r.json);
    expect(e.map((d) => [d.code, d.line])).toEqual([
      ['E031', 8],
      ['E031', 8],
    ]);
    expect(e[0]!.message).toContain('{smaple} in params.rg');
    expect(e[0]!.message).toContain('(did you mean {sample}?)');
    expect(e[1]!.message).toContain('{input} in params.p');
  });
});

describe('per-group fan-in', () => {
  const text =
    `${HEAD}[[sample_groups]]\nname = "ctrl"\nsamples = ["c1", "c2"]\n\n[[sample_groups]]\nname = "treat"\nsamples = ["t1", "t2", "t3"]\n\n` +
    `[[rules]]\nname = "count"\ninput = ["raw/{sample}.txt"]\noutput = ["counts/{sample}.tsv"]\nshell = "printf '%s\\\\t%s\\\\n' {sample} $(wc -l < {input}) > {output}"\n\n` +
    `[[rules]]\nname = "merge_group"\noutput = ["merged/{group}.tsv"]\n` +
    `expand_inputs = [{ pattern = "counts/{sample}.tsv", variables = { sample = "config.samples_{group}" } }]\nshell = "cat {input} > {output}"\n\n` +
    `[[rules]]\nname = "merge_all"\noutput = ["merged/all.tsv"]\n` +
    `expand_inputs = [{ pattern = "counts/{sample}.tsv", variables = { sample = "config.samples_list" } }]\nshell = "cat {input} > {output}"\n`;
  const raw = { c1: 1, c2: 2, t1: 3, t2: 4, t3: 5 };
  const files = Object.fromEntries(Object.entries(raw).map(([s, n]) => [`raw/${s}.txt`, 'x\n'.repeat(n)]));

  function withRaw(): string {
    const dir = project(text);
    for (const [file, body] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), body);
    }
    return dir;
  }

  it('one job per group with that group\'s samples, beside the all-samples fan-in; run merges each group', () => {
    const dir = withRaw();
    const plan = runCliJson(['dry-run'], { cwd: dir });
    expect(plan.code, plan.stdout).toBe(0);
    const inputs = Object.fromEntries(jobsOf(plan.json).filter((j) => j.id.startsWith('merge')).map((j) => [j.id, j.inputs]));
    expect(inputs).toEqual({
      'merge_group[group=ctrl]': ['counts/c1.tsv', 'counts/c2.tsv'],
      'merge_group[group=treat]': ['counts/t1.tsv', 'counts/t2.tsv', 'counts/t3.tsv'],
      merge_all: ['counts/c1.tsv', 'counts/c2.tsv', 'counts/t1.tsv', 'counts/t2.tsv', 'counts/t3.tsv'],
    });
    const r = runCliJson(['run', '-j', '2'], { cwd: dir });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(read(dir, 'merged/ctrl.tsv')).toBe('c1\t1\nc2\t2\n');
    expect(read(dir, 'merged/treat.tsv')).toBe('t1\t3\nt2\t4\nt3\t5\n');
    expect(read(dir, 'merged/all.tsv')).toBe('c1\t1\nc2\t2\nt1\t3\nt2\t4\nt3\t5\n');
  });

  it('a per-group source naming a key some group lacks is E005 per group; a misspelt placeholder there is E031', () => {
    const missing = project(text.replace('config.samples_{group}', 'config.n_{group}'));
    const r = runCliJson(['validate'], { cwd: missing });
    expect(r.code).toBe(1);
    expect(errorsOf(r.json).map((d) => d.message)).toEqual([
      expect.stringContaining('config.n_ctrl (for group ctrl)'),
      expect.stringContaining('config.n_treat (for group treat)'),
    ]);
    const typo = project(text.replace('config.samples_{group}', 'config.samples_{grp}'));
    for (const cmd of ['validate', 'dry-run']) {
      const t = runCliJson([cmd], { cwd: typo });
      expect(t.code, cmd).toBe(1);
      expect(errorsOf(t.json).map((d) => d.code), cmd).toEqual(['E031']);
    }
  });
});

describe('script rules read their job from the environment and a JSON file', () => {
  const rule = (name: string, script: string) =>
    `[[rules]]\nname = "${name}"\ninput = { reads = "raw/{sample}.txt" }\noutput = ["out/${name}/{sample}.txt"]\nlog = "logs/${name}/{sample}.log"\nthreads = 2\nmemory = "1G"\n` +
    `params = { minlen = 30, rg = "ID:{sample}", opts = ["-a", "b c", "$(touch PWNED)"], auth = "Bearer {config.token}" }\nscript = "${script}"\n\n`;
  const text = (rules: string) =>
    `${HEAD}[config]\nlabel = "run 1"\ntoken = { default = "s3cr3t-token-value", sensitive = true }\n\n[[sample_groups]]\nname = "g"\nsamples = ["S1", "x y"]\n\n${rules}`;

  // Each writes: sample, the named input, minlen, threads, memory in MB, the options one per line, a config value.
  const python = `import json, os
job = json.load(open(os.environ["OXO_JOB_JSON"]))
assert os.path.isabs(os.environ["OXO_JOB_JSON"])
assert job["input"] == [os.environ["OXO_INPUT_0"]] and job["named_input"]["reads"] == os.environ["OXO_INPUT_READS"]
assert job["config"]["token"] == "***" and os.environ["OXO_CONFIG_TOKEN"] == "s3cr3t-token-value"
assert job["params"]["auth"] == "Bearer ***" and os.environ["OXO_PARAMS_AUTH"] == "Bearer s3cr3t-token-value"
opts = [os.environ["OXO_PARAMS_OPTS_%d" % i] for i in range(int(os.environ["OXO_PARAMS_OPTS_COUNT"]))]
assert opts == job["params"]["opts"]
with open(job["output"][0], "w") as out:
    out.write("\\n".join([job["wildcards"]["sample"], job["named_input"]["reads"], str(job["params"]["minlen"]), str(job["threads"]), str(job["resources"]["memory_mb"]), *opts, job["params"]["rg"], job["config"]["label"]]) + "\\n")
with open(job["log"], "w") as log:
    log.write("ok\\n")
`;
  const bash = `set -euo pipefail
{
  echo "$OXO_SAMPLE"
  echo "$OXO_INPUT_READS"
  echo "$OXO_PARAMS_MINLEN"
  echo "$OXO_THREADS"
  echo "$OXO_MEMORY_MB"
  for ((i = 0; i < OXO_PARAMS_OPTS_COUNT; i++)); do v="OXO_PARAMS_OPTS_$i"; printf '%s\\n' "\${!v}"; done
  echo "$OXO_PARAMS_RG"
  echo "$OXO_CONFIG_LABEL"
} > "$OXO_OUTPUT_0"
test -f "$OXO_JOB_JSON"
echo ok > "$OXO_LOG"
`;
  const r = `inputs <- vapply(seq_len(as.integer(Sys.getenv("OXO_INPUT_COUNT"))) - 1, function(i) Sys.getenv(paste0("OXO_INPUT_", i)), "")
opts <- vapply(seq_len(as.integer(Sys.getenv("OXO_PARAMS_OPTS_COUNT"))) - 1, function(i) Sys.getenv(paste0("OXO_PARAMS_OPTS_", i)), "")
stopifnot(file.exists(Sys.getenv("OXO_JOB_JSON")))
writeLines(c(Sys.getenv("OXO_SAMPLE"), inputs, Sys.getenv("OXO_PARAMS_MINLEN"), Sys.getenv("OXO_THREADS"), Sys.getenv("OXO_MEMORY_MB"), opts, Sys.getenv("OXO_PARAMS_RG"), Sys.getenv("OXO_CONFIG_LABEL")), Sys.getenv("OXO_OUTPUT_0"))
writeLines("ok", Sys.getenv("OXO_LOG"))
`;
  const expected = (sample: string) => `${sample}\nraw/${sample}.txt\n30\n2\n1024\n-a\nb c\n$(touch PWNED)\nID:${sample}\nrun 1\n`;

  function scripted(rules: string, scripts: Record<string, string>): string {
    const dir = project(text(rules));
    mkdirSync(path.join(dir, 'scripts'));
    mkdirSync(path.join(dir, 'raw'));
    for (const [name, body] of Object.entries(scripts)) writeFileSync(path.join(dir, 'scripts', name), body);
    for (const s of ['S1', 'x y']) writeFileSync(path.join(dir, 'raw', `${s}.txt`), `${s}\n`);
    return dir;
  }

  it('Python and Bash scripts get the same job through oxo-flow run; the JSON file stays beside the log without the secret', () => {
    const dir = scripted(rule('py', 'scripts/job.py') + rule('sh', 'scripts/job.sh'), { 'job.py': python, 'job.sh': bash });
    const plan = runCliJson(['dry-run'], { cwd: dir });
    expect(plan.code, plan.stdout).toBe(0);
    const py = jobsOf(plan.json).find((j) => j.id === 'py[sample=x y]')!;
    expect(py.script).toBe('python3 "${OXO_SCRIPT}"');
    expect(py.env).toMatchObject({ OXO_SCRIPT: 'scripts/job.py', OXO_INPUT_0: 'raw/x y.txt', OXO_PARAMS_OPTS_COUNT: '3', OXO_SAMPLE: 'x y', OXO_CONFIG_TOKEN: '***' });
    expect(JSON.stringify(plan.json)).not.toContain('s3cr3t-token-value');

    const run = runCliJson(['run', '-j', '2'], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    for (const rule of ['py', 'sh']) for (const s of ['S1', 'x y']) expect(read(dir, `out/${rule}/${s}.txt`), `${rule} ${s}`).toBe(expected(s));
    expect(existsSync(path.join(dir, 'PWNED'))).toBe(false);
    const logs = path.join(dir, '.oxo-flow', 'logs');
    const jsonFile = readdirSync(logs).find((f) => f.startsWith('py_sample=S1') && f.endsWith('.json'))!;
    expect(jsonFile).toBeDefined();
    const doc = JSON.parse(readFileSync(path.join(logs, jsonFile), 'utf8'));
    expect(doc).toMatchObject({ rule: 'py', job: 'py[sample=S1]', output: ['out/py/S1.txt'], wildcards: { sample: 'S1' }, params: { minlen: 30, opts: ['-a', 'b c', '$(touch PWNED)'] } });
    expect(statSync(path.join(logs, jsonFile)).mode & 0o777).toBe(0o600);
    for (const f of readdirSync(logs)) expect(readFileSync(path.join(logs, f), 'utf8'), f).not.toContain('s3cr3t-token-value');
  });

  const rscript = requireTools(['Rscript'], 'install r-base-core');
  it.skipIf(rscript.skip)('an R script reads the same job from the environment with base R', () => {
    const dir = scripted(rule('r', 'scripts/job.R'), { 'job.R': r });
    const run = runCliJson(['run', '-j', '2'], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    for (const s of ['S1', 'x y']) expect(read(dir, `out/r/${s}.txt`)).toBe(expected(s));
  });

  it('a script without a known extension runs by its own path and #! line', () => {
    const dir = scripted(rule('own', 'scripts/own'), { own: '#!/bin/sh\nprintf "%s\\n" "$OXO_SAMPLE" "$OXO_INPUT_READS" > "$OXO_OUTPUT_0"\n: > "$OXO_LOG"\n' });
    chmodSync(path.join(dir, 'scripts', 'own'), 0o755);
    const run = runCliJson(['run', '-j', '1'], { cwd: dir });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(read(dir, 'out/own/x y.txt')).toBe('x y\nraw/x y.txt\n');
  });

  it('a changed config value reruns a script job (the whole job is its values)', () => {
    const dir = scripted(rule('sh', 'scripts/job.sh'), { 'job.sh': bash });
    expect(runCliJson(['run', '-j', '1'], { cwd: dir }).code).toBe(0);
    const again = runCliJson(['dry-run'], { cwd: dir });
    expect(jobsOf(again.json).map((j) => (j as unknown as { status: string }).status)).toEqual(['skip', 'skip']);
    const changed = runCliJson(['dry-run', 'label=run 2'], { cwd: dir });
    expect(jobsOf(changed.json).map((j) => (j as unknown as { reason: string }).reason)).toEqual(['command changed', 'command changed']);
  });
});

describe('placeholder spellings oxo-flow does not have', () => {
  const text = (shell: string, extra = '') =>
    `${HEAD}[[sample_groups]]\nname = "g"\nsamples = ["A"]\n\n[[rules]]\nname = "r"\noutput = ["o/{sample}.txt"]\n${extra}shell = ${JSON.stringify(shell)}\n`;

  it.each([
    ['{wildcards.sample}', 'echo {wildcards.sample} > {output}', '', '{sample}'],
    ['{resources.mem_mb}', 'tool -m {resources.mem_mb} > {output}', 'memory = "2G"\n', '{memory}'],
    ['{resources.cpus}', 'tool -t {resources.cpus} > {output}', '', '{threads}'],
    ['{param.x}', 'tool {param.x} > {output}', 'params = { x = "1" }\n', '{params.x}'],
  ])('%s is E031 with the did-you-mean, in validate, lint and dry-run alike', (raw, shell, extra, ours) => {
    const dir = project(text(shell, extra));
    for (const cmd of ['validate', 'lint', 'dry-run']) {
      const r = runCliJson([cmd], { cwd: dir });
      expect(r.code, cmd).toBe(1);
      const e = errorsOf(r.json);
      expect(e.map((d) => d.code), cmd).toEqual(['E031']);
      expect(e[0]!.message, cmd).toContain(`${raw} in shell of rule "r" cannot be filled`);
      expect(e[0]!.message, cmd).toContain(`did you mean ${ours}?`);
      expect(e[0]!.hint, cmd).toBe(`write ${ours}`);
      expect(e[0]!.line, cmd).toBe(extra === '' ? 11 : 12);
    }
  });

  it('{foo.bar} is E031 naming the namespaces there are; {memory} with no memory is E031; both fixed, the run fills them', () => {
    const bad = project(text('tool {foo.bar} -m {memory} > {output}'));
    const r = runCliJson(['dry-run'], { cwd: bad });
    expect(r.code).toBe(1);
    expect(errorsOf(r.json).map((d) => d.message)).toEqual([
      expect.stringContaining('{foo.bar} is no placeholder of oxo-flow\'s'),
      expect.stringContaining('{memory} in shell of rule "r" cannot be filled: the rule has no memory'),
    ]);
    const good = project(text('echo {sample} {memory} > {output}', 'memory = "2G"\n'));
    const run = runCliJson(['run', '-j', '1'], { cwd: good });
    expect(run.code, run.stdout + run.stderr).toBe(0);
    expect(read(good, 'o/A.txt')).toBe('A 2G\n');
  });
});
