import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { checkWorkflow } from '../../../src/workflow/checks/index.js';
import { lintWorkflow } from '../../../src/workflow/lint/index.js';
import { loadWorkflow } from '../../../src/workflow/load/index.js';
import { planWorkflow } from '../../../src/workflow/plan/index.js';
import {
  TEMPLATES,
  condaEnvFiles,
  countRules,
  expandBraces,
  findTemplate,
  nearestName,
  placeholderContent,
  renameWorkflow,
  templateAssetUrl,
  templateFileUrl,
  templatesDirUrl,
} from '../../../src/workflow/templates/index.js';
import { emptyFs } from '../../helpers/templates-fs.js';

const dir = fileURLToPath(templatesDirUrl());
const textOf = (name: string) => readFileSync(templateFileUrl(name), 'utf8');

describe('the template catalogue', () => {
  it('lists exactly the .oxoflow files shipped in templates/, at least ten, with the required ones', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.oxoflow')).map((f) => f.replace(/\.oxoflow$/, '')).sort();
    expect(TEMPLATES.map((t) => t.name).sort()).toEqual(files);
    expect(files.length).toBeGreaterThanOrEqual(10);
    for (const required of ['hello-world', 'file-chain', 'sample-fanout', 'scatter-gather', 'rnaseq-quant', 'germline-variants', 'tumor-normal', 'single-cell-rnaseq', 'amplicon-16s', 'chipseq']) {
      expect(files).toContain(required);
    }
  });

  it('finds templates by name, case-insensitively and with a .oxoflow suffix, and nothing else', () => {
    expect(findTemplate('RNASEQ-QUANT')?.name).toBe('rnaseq-quant');
    expect(findTemplate('chipseq.oxoflow')?.name).toBe('chipseq');
    expect(findTemplate('rnaseq')).toBeUndefined();
    expect(findTemplate('../templates/chipseq')).toBeUndefined();
  });

  it('suggests the nearest name for typos and unique prefixes, and nothing for unrelated words', () => {
    const names = TEMPLATES.map((t) => t.name);
    expect(nearestName('rnaseq', names)).toBe('rnaseq-quant');
    expect(nearestName('chipsq', names)).toBe('chipseq');
    expect(nearestName('tumour-normal', names)).toBe('tumor-normal');
    expect(nearestName('helloworld', names)).toBe('hello-world');
    expect(nearestName('kubernetes', names)).toBeUndefined();
  });

  it('refuses asset paths that leave the templates folder', () => {
    expect(templateAssetUrl('envs/salmon.yaml')).toBeDefined();
    expect(templateAssetUrl('../package.json')).toBeUndefined();
    expect(templateAssetUrl('/etc/passwd')).toBeUndefined();
  });
});

describe.each(TEMPLATES.map((t) => [t.name, t] as const))('template %s', (name, info) => {
  const text = textOf(name);
  const loaded = loadWorkflow(text, `${name}.oxoflow`, { dir: '/nonexistent-project' });

  it('opens with a comment header saying what it does and how to adapt it', () => {
    expect(text.startsWith(`# ${name}:`)).toBe(true);
    const header = text.slice(0, text.indexOf('[workflow]'));
    expect(header).toMatch(/What it does/);
    expect(header).toMatch(/How to adapt it/);
  });

  it('loads and checks with no diagnostic at all', () => {
    expect(loaded.diagnostics).toEqual([]);
    expect(loaded.workflow).toBeDefined();
    expect(checkWorkflow(loaded.workflow!)).toEqual([]);
  });

  it('lints with no error and no warning (info only: conda files that are not lock files, system tools)', () => {
    const findings = lintWorkflow(loaded.workflow!);
    expect(findings.filter((d) => d.severity !== 'info')).toEqual([]);
    for (const d of findings) expect(['W008', 'W016']).toContain(d.code);
  });

  it('declares name, description, author, config, and a log for every rule', () => {
    const wf = loaded.workflow!;
    expect(wf.meta.name).toBe(name);
    expect(wf.meta.description?.length).toBeGreaterThan(10);
    expect(wf.meta.author).toBeTruthy();
    expect(wf.config.size).toBeGreaterThan(0);
    for (const rule of wf.rules) {
      expect(rule.description, rule.name).toBeTruthy();
      expect(rule.log, rule.name).toBeTruthy();
    }
    expect(countRules(text)).toBe(wf.rules.length);
  });

  it('plans jobs with every wildcard filled, and needs exactly the placeholder inputs init creates', () => {
    const planned = planWorkflow(loaded.workflow!, {}, emptyFs);
    expect(planned.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const jobs = planned.plan!.jobs;
    expect(jobs.length).toBeGreaterThan(loaded.workflow!.rules.length - 1);
    for (const job of jobs) for (const p of [...job.inputs, ...job.outputs]) expect(p, job.id).not.toMatch(/\{/);
    const missing = new Set(jobs.flatMap((j) => j.missingInputs));
    expect([...missing].sort()).toEqual(info.starterInputs.flatMap(expandBraces).sort());
  });

  it('ships every conda environment file it names', () => {
    for (const env of condaEnvFiles(text)) expect(existsSync(templateAssetUrl(env)!), env).toBe(true);
  });

  it('can be renamed without touching anything but [workflow] name', () => {
    const renamed = renameWorkflow(text, 'my-project');
    const result = loadWorkflow(renamed, 'main.oxoflow');
    expect(result.workflow?.meta.name).toBe('my-project');
    const changed = renamed.split('\n').filter((line, i) => line !== text.split('\n')[i]);
    expect(changed).toEqual(['name = "my-project"']);
  });
});

describe('template text helpers', () => {
  it('expands brace lists in order, several per pattern', () => {
    expect(expandBraces('data/{a,b}_R{1,2}.fq')).toEqual(['data/a_R1.fq', 'data/a_R2.fq', 'data/b_R1.fq', 'data/b_R2.fq']);
    expect(expandBraces('ref/genome.fa')).toEqual(['ref/genome.fa']);
    // A brace without a comma is a placeholder, not a list.
    expect(expandBraces('data/{sample}.fq')).toEqual(['data/{sample}.fq']);
  });

  it('renames only the [workflow] table, not a rule or a sample group called name', () => {
    const text = '[[rules]]\nname = "a"\n\n[workflow]\n# the id\nname = "old"\n\n[[sample_groups]]\nname = "g"\n';
    expect(renameWorkflow(text, 'new')).toBe('[[rules]]\nname = "a"\n\n[workflow]\n# the id\nname = "new"\n\n[[sample_groups]]\nname = "g"\n');
  });

  it('counts [[rules]] headers and finds conda files once each', () => {
    expect(countRules('[[rules]]\nname="a"\n  [[ rules ]] # b\n[rules.resources]\n')).toBe(2);
    expect(condaEnvFiles('environment = { conda = "envs/a.yaml" }\nconda = "envs/b.yml"\nconda = "envs/a.yaml"\nconda = "/abs/c.yaml"')).toEqual(['envs/a.yaml', 'envs/b.yml']);
  });

  it('writes placeholders that real tools can open: gzip that decompresses, FASTQ records of four lines', () => {
    const fastq = gunzipSync(placeholderContent('data/x_R1.fastq.gz')).toString();
    const lines = fastq.trimEnd().split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toMatch(/^@/);
    expect(lines[1]!.length).toBe(lines[3]!.length);
    expect(Buffer.from(placeholderContent('ref/g.fa')).toString()).toMatch(/^>/);
    expect(gunzipSync(placeholderContent('ref/x.vcf.gz')).toString()).toMatch(/^##fileformat=VCF/);
  });
});
