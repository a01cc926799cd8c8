// `oxo-flow ai lookup skill|pipeline` and `ai skills list --builtin` through the built CLI, and the
// lookup_skill / lookup_pipeline tools through `ai call`.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BUILTIN_DIR, builtinSkillNames } from '../helpers/builtin-skills.js';
import { runCli, runCliJson } from '../helpers/run-cli.js';

const tmp = mkdtempSync(path.join(os.tmpdir(), 'oxo-lookup-'));
const env = { OXO_FLOW_HOME: path.join(tmp, 'home'), OXO_FLOW_AI_PROVIDER: undefined, CI: '1' };
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const run = (args: string[]) => runCli(args, { cwd: tmp, env });
const json = (args: string[]) => runCliJson(args, { cwd: tmp, env });

describe('ai lookup skill', () => {
  it('ranks skills with name, domain, tool, why and score (human on stdout)', () => {
    const r = run(['ai', 'lookup', 'skill', 'paired-end adapter trimming']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ 1\. trimgalore-trim {2}\[qc-trimming\] {2}tool: trim_galore {2}score \d+\.\d\d$/m);
    expect(r.stdout).toMatch(/matched name: trimming; tool: trimming/);
  });

  it('--json gives the ranked results, the clauses and synonym expansions', () => {
    const r = json(['ai', 'lookup', 'skill', 'DE', 'analysis', '--limit', '3']);
    expect(r.code).toBe(0);
    const j = r.json as any;
    expect(j.query).toBe('DE analysis');
    expect(j.clauses[0]).toEqual({ text: 'de', expansion: 'differential expression' });
    expect(j.results).toHaveLength(3);
    expect(j.results[0]).toMatchObject({ rank: 1, alias: `builtin/${j.results[0].name}`, domain: 'differential-expression' });
    expect(j.results.every((x: any) => x.score > 0 && typeof x.why === 'string' && x.tool !== undefined)).toBe(true);
  });

  it('"star" finds STAR skills and never "start" (whole words only)', () => {
    const j = json(['ai', 'lookup', 'skill', 'star', '--limit', '10']).json as any;
    expect(j.results.slice(0, 2).map((x: any) => x.name).sort()).toEqual(['star-align', 'star-index']);
    // Every hit has the whole word STAR somewhere; "start", "started", "restart" alone never match.
    for (const x of j.results) expect(readFileSync(path.join(BUILTIN_DIR, x.name, 'SKILL.md'), 'utf8'), x.name).toMatch(/\bstar\b/i);
    const starts = builtinSkillNames().filter((n) => /\bstart/i.test(readFileSync(path.join(BUILTIN_DIR, n, 'SKILL.md'), 'utf8')) && !/\bstar\b/i.test(readFileSync(path.join(BUILTIN_DIR, n, 'SKILL.md'), 'utf8')));
    expect(starts.length).toBeGreaterThan(0); // the library does say "start" in skills that are not about STAR
    expect(j.results.map((x: any) => x.name)).not.toEqual(expect.arrayContaining([starts[0]]));
  });

  it('no match, an empty query and a bad --limit are coded', () => {
    const none = json(['ai', 'lookup', 'skill', 'zzqx', 'wobblefrob']);
    expect(none.code).toBe(1);
    expect((none.json as any).diagnostics[0].code).toBe('KN006');
    const empty = run(['ai', 'lookup', 'skill', 'the']);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('error KN007');
    expect(run(['ai', 'lookup', 'skill', 'fastp', '--limit', 'x']).stderr).toContain('error KN009');
  });
});

describe('ai lookup pipeline', () => {
  it('--from X --to Y: routes as pipelines run them, with the data on each edge and the assay', () => {
    const r = run(['ai', 'lookup', 'pipeline', '--from', 'fastp', '--to', 'featurecounts']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^fastp → featurecounts \(rna-seq\): \d+ routes?, best practice first/);
    expect(r.stdout).toMatch(/route 1: fastp → \S+ → featurecounts {2}\(as run by nf-core\/rnaseq\)/);
    expect(r.stdout).toMatch(/star-align → featurecounts: BAM {2}\(nf-core\/rnaseq\)/);
    const j = json(['ai', 'lookup', 'pipeline', '--from', 'fastp', '--to', 'featurecounts']).json as any;
    expect(j.action).toBe('path');
    expect(j.assay).toBe('rna-seq');
    expect(j.steps).toBe(2);
    expect(j.paths.some((p: any) => p.nodes.join(' ') === 'fastp star-align featurecounts' && p.edges[1].data.includes('BAM'))).toBe(true);
    expect(j.paths.every((p: any) => p.mixed === false && p.assays.includes('rna-seq'))).toBe(true);
  });

  it('--assay keeps to one assay; an unknown assay is KN010 with the list', () => {
    const j = json(['ai', 'lookup', 'pipeline', '--from', 'featurecounts', '--to', 'deseq2', '--assay', 'atac-seq']).json as any;
    expect(j.paths[0].pipelines).toContain('nf-core/atacseq');
    const bad = json(['ai', 'lookup', 'pipeline', '--from', 'fastp', '--to', 'deseq2', '--assay', 'astrology']);
    expect(bad.code).toBe(2);
    expect(JSON.stringify(bad.json)).toContain('KN010');
  });

  it('flags a weak skill match and reads a typo', () => {
    const weak = json(['ai', 'lookup', 'skill', 'cryo-EM particle picking']).json as any;
    expect(weak.weak).toBe(true);
    expect(run(['ai', 'lookup', 'skill', 'cryo-EM particle picking']).stdout).toContain('Weak match');
    const typo = json(['ai', 'lookup', 'skill', 'mutec2']).json as any;
    expect(typo.did_you_mean).toEqual({ mutec2: 'mutect2' });
    expect(typo.results[0].name).toBe('gatk-mutect2');
  });

  it('--from alone lists what usually follows (node found by tool or alias, any case)', () => {
    const r = run(['ai', 'lookup', 'pipeline', '--from', 'STAR']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^star-align: Spliced alignment/);
    expect(r.stdout).toMatch(/usually followed by \(\d+\):\n {2}→ /);
    expect(r.stdout).toMatch(/→ featurecounts +BAM/);
    const j = json(['ai', 'lookup', 'pipeline', '--from', 'featureCounts']).json as any;
    expect(j.node.id).toBe('featurecounts');
    expect(j.node.skills).toContain('featurecounts-count');
    expect(j.outgoing.map((e: any) => e.to)).toContain('deseq2');
  });

  it('--stats counts the graph', () => {
    const j = json(['ai', 'lookup', 'pipeline', '--stats']).json as any;
    expect(j.action).toBe('stats');
    expect(j.steps).toBeGreaterThanOrEqual(80);
    expect(j.edges).toBeGreaterThanOrEqual(300);
  });

  it('unknown, ambiguous, unreachable and missing steps are coded', () => {
    const unknown = run(['ai', 'lookup', 'pipeline', '--from', 'fastpp']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('error KN003');
    expect(unknown.stderr).toContain('did you mean "fastp"?');
    expect(run(['ai', 'lookup', 'pipeline', '--from', 'samtools']).stderr).toMatch(/error KN004: "samtools" is a tool of \d+ steps: .*samtools-sort-index/);
    const none = run(['ai', 'lookup', 'pipeline', '--from', 'multiqc', '--to', 'fastp']);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('warning KN005');
    expect(run(['ai', 'lookup', 'pipeline']).stderr).toContain('error KN008');
  });
});

describe('ai skills list --builtin and the lookup tools', () => {
  it('groups the built-in library by domain; a project skill of the same name shadows one visibly', () => {
    const project = path.join(tmp, 'project');
    mkdirSync(path.join(project, '.oxo-flow', 'skills', 'star-align'), { recursive: true });
    writeFileSync(path.join(project, '.oxo-flow', 'skills', 'star-align', 'SKILL.md'), '---\nname: star-align\ndescription: Our own STAR settings.\n---\nUse 2-pass mode.\n');
    const r = runCli(['ai', 'skills', 'list', '--builtin'], { cwd: project, env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`Built-in skills: ${builtinSkillNames().length} in `);
    expect(r.stderr).toMatch(/^ {2}rna-alignment \(\d+\)\n(?: {4}.*\n)* {4}star-align +STAR: .*\[shadowed by project\/star-align; use builtin\/star-align\]/m);
    const j = runCliJson(['ai', 'skills', 'list', '--builtin'], { cwd: project, env }).json as any;
    const star = j.domains.find((d: any) => d.domain === 'rna-alignment').skills.find((s: any) => s.name === 'star-align');
    expect(star).toMatchObject({ status: 'shadowed', shadowed_by: 'project/star-align', primary_tool: 'STAR', tool_type: 'cli' });
    expect(runCli(['ai', 'skills', 'show', 'builtin/star-align'], { cwd: project, env }).stdout).toMatch(/^## Skill: star-align\n# STAR/);
  });

  it('lookup_skill and lookup_pipeline are read-only built-in tools the model can call', () => {
    const tools = json(['ai', 'tools']).json as any;
    const names = tools.tools.map((t: any) => t.name);
    expect(names).toEqual(expect.arrayContaining(['lookup_skill', 'lookup_pipeline']));
    const skill = json(['ai', 'call', 'lookup_skill', '--args', JSON.stringify({ query: 'somatic SNV tumor normal', limit: 3 })]).json as any;
    expect(skill.result.is_error ?? skill.result.isError).toBe(false);
    expect(skill.result.text).toMatch(/ 1\. (strelka2-somatic|varscan2-somatic|gatk-mutect2) /);
    const route = json(['ai', 'call', 'lookup_pipeline', '--args', JSON.stringify({ action: 'path', from: 'fastp', to: 'featurecounts' })]).json as any;
    expect(route.result.text).toContain('fastp → featurecounts');
    const bad = json(['ai', 'call', 'lookup_pipeline', '--args', JSON.stringify({ action: 'path', from: 'fastp' })]).json as any;
    expect(bad.result.text).toContain('needs "from" and "to"');
  });
});
