// The built-in knowledge reaches the model (issue 22), through the built CLI against the fake
// provider that records every request: a review offers the lookup tools and reads a built-in skill
// with read_skill although none is active; the prompts name the built-in skills that match the
// request (one per step of it), not their bodies; a tool skill active for lint --ai has its MCP
// tools offered.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm, type FakeReply } from '../helpers/fake-llm.js';
import { runCliAsync } from '../helpers/mcp-cli.js';
import { runCli } from '../helpers/run-cli.js';
import { makeToolSkillProject } from '../helpers/mcp-project.js';
import { startSdkFixture, type SdkFixture } from '../helpers/mcp-sdk-server.js';
import { tempDir } from '../helpers/plan-workflow.js';

const KEY = 'sk-FAKEKEY-reach-5e6f7a8b';
const RNA = `[workflow]
name = "rna"
description = "paired-end RNA-seq"
author = "lab"

[[sample_groups]]
name = "all"
samples = ["S1"]

[[rules]]
name = "star_align"
description = "align reads with STAR"
input = ["raw/{sample}_R1.fq.gz"]
output = ["bam/{sample}.bam"]
log = "logs/star_{sample}.log"
shell = "STAR --runThreadN {threads} --readFilesIn {input} > {output} 2> {log}"

[[rules]]
name = "count"
description = "count reads per gene"
input = ["bam/{sample}.bam"]
output = ["counts/{sample}.txt"]
log = "logs/count_{sample}.log"
shell = "featureCounts -T {threads} -o {output} {input} 2> {log}"
`;

let fake: FakeLlm | undefined;
let mcp: SdkFixture | undefined;
afterEach(async () => {
  await fake?.close();
  await mcp?.close();
  fake = mcp = undefined;
});

async function setup(replies: FakeReply[], dir = tempDir('oxo-ai-reach-')) {
  fake = await startFakeLlm(replies);
  const home = path.join(dir, 'home-for-test');
  mkdirSync(home, { recursive: true });
  writeFileSync(path.join(home, 'ai_config.json'), JSON.stringify({ schema_version: 1, retries: { max: 0 } }));
  const env = { OXO_FLOW_HOME: home, OXO_FLOW_AI_PROVIDER: 'openai', OXO_FLOW_AI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: KEY, OXO_FLOW_AI_MODEL: 'test-model', CI: 'true' };
  return { dir, env, fake };
}

const toolNames = (body: Record<string, any>) => (body.tools as { function: { name: string } }[]).map((t) => t.function.name); // eslint-disable-line @typescript-eslint/no-explicit-any

describe('the built-in knowledge reaches the model', () => {
  it('lint --ai offers lookup_skill and lookup_pipeline, reads builtin/star-align with read_skill, and names matching built-ins', async () => {
    const { dir, env, fake } = await setup([
      { kind: 'answer', toolCalls: [{ name: 'read_skill', args: { name: 'builtin/star-align' } }] },
      { kind: 'answer', text: '[WARNING] star_align: no --outSAMtype → add --outSAMtype BAM SortedByCoordinate\nOne finding.' },
    ]);
    writeFileSync(path.join(dir, 'main.oxoflow'), RNA);
    const r = await runCliAsync(['--json', 'lint', '--ai'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.ai).toMatchObject({ status: 'ok', findings: [{ rule: 'star_align', severity: 'warning' }] });
    expect(toolNames(fake.requests[0]!.body)).toEqual(expect.arrayContaining(['read_skill', 'read_skill_file', 'lookup_skill', 'lookup_pipeline']));
    // No skill is active, yet the built-in body came back to the model.
    expect(doc.ai.skills).toEqual([]);
    const tool = (fake.requests[1]!.body.messages as { role: string; content: string }[]).find((m) => m.role === 'tool')!;
    expect(tool.content).toContain('# STAR alignment');
    // The rules' steps named the matching built-ins (name and one line), not their bodies.
    const system = fake.requests[0]!.body.messages[0].content as string;
    expect(system).toContain('- builtin/star-align: ');
    expect(system).toContain('- builtin/featurecounts-count: ');
    expect(system).not.toContain('# STAR alignment');
    expect(doc.ai.builtin_skills_listed).toEqual(expect.arrayContaining(['star-align', 'featurecounts-count']));
  });

  it('template --ai "paired-end RNA-seq, STAR + featureCounts, then DESeq2" names star-align, featurecounts-count and deseq2-de', async () => {
    const { dir, env, fake } = await setup([{ kind: 'answer', text: `\`\`\`toml\n${RNA}\`\`\`` }]);
    const r = await runCliAsync(['--json', 'template', '--ai', 'paired-end RNA-seq, STAR + featureCounts, then DESeq2', '-o', 'rna.oxoflow'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    const system = fake.requests[0]!.body.messages[0].content as string;
    for (const name of ['star-align', 'featurecounts-count', 'deseq2-de']) expect(system).toContain(`- builtin/${name}: `);
    expect(JSON.parse(r.stdout).builtin_skills_listed).toEqual(expect.arrayContaining(['star-align', 'featurecounts-count', 'deseq2-de']));
    expect(toolNames(fake.requests[0]!.body)).toEqual(expect.arrayContaining(['lookup_skill', 'lookup_pipeline', 'read_skill', 'read_format', 'validate_workflow']));
  });

  it('a tool skill active for lint --ai has its MCP tools offered (and refused under CI)', async () => {
    mcp = await startSdkFixture({ mode: 'json', lifetimeMs: 600_000 });
    const project = makeToolSkillProject({ name: 'clinvar', url: mcp.url });
    const { dir, env, fake } = await setup(
      [{ kind: 'answer', toolCalls: [{ name: 'mcp_clinvar_delete_records', args: { gene: 'BRCA1' } }] }, { kind: 'answer', text: 'Nothing to add.' }],
      project.dir,
    );
    writeFileSync(path.join(dir, 'main.oxoflow'), RNA);
    const r = await runCliAsync(['lint', '--ai'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(toolNames(fake.requests[0]!.body)).toContain('mcp_clinvar_delete_records');
    expect(mcp.calls).toEqual([]);
    // The refusal leaves a trace in human output under CI.
    expect(r.stderr).toMatch(/→ mcp_clinvar_delete_records \{"gene":"BRCA1"\}/);
    expect(r.stderr).toMatch(/✗ refused \(APR001\): .*CI is set/);
  });

  it('ai call read_skill builtin/star-align works with no skill active (the same tool the model gets)', () => {
    const dir = tempDir('oxo-ai-reach-');
    const r = runCli(['ai', 'call', 'read_skill', '--args', '{"name":"builtin/star-align"}'], { cwd: dir, env: { OXO_FLOW_HOME: path.join(dir, 'home') } });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout + r.stderr).toContain('# STAR alignment');
  });

  it('a secret the model puts in a tool call is masked in the tool-call line', async () => {
    const { dir, env } = await setup([
      { kind: 'answer', toolCalls: [{ name: 'lookup_skill', args: { query: `STAR ${KEY}` } }] },
      { kind: 'answer', text: `\`\`\`toml\n${RNA}\`\`\`` },
    ]);
    const r = await runCliAsync(['template', '--ai', 'STAR', '-o', 'rna.oxoflow'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/→ lookup_skill \{"query":"STAR \*+"\}/);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('an unreachable MCP server of an active tool skill is one warning; the review goes on without its tools', async () => {
    const project = makeToolSkillProject({ name: 'gone', url: 'http://127.0.0.1:1/mcp' });
    const { dir, env, fake } = await setup([{ kind: 'answer', text: 'Nothing to add.' }], project.dir);
    writeFileSync(path.join(dir, 'main.oxoflow'), RNA);
    const r = await runCliAsync(['--json', 'lint', '--ai'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.ai.status).toBe('ok');
    expect(doc.ai.diagnostics.filter((d: { message: string }) => /MCP server gone/.test(d.message))).toHaveLength(1);
    expect(toolNames(fake.requests[0]!.body).some((n) => n.startsWith('mcp_gone'))).toBe(false);
  });

  it('a review whose model only calls tools stops after 6 tool rounds: AI015, status incomplete, the exit code its own', async () => {
    const { dir, env, fake } = await setup(Array.from({ length: 20 }, () => ({ kind: 'answer' as const, toolCalls: [{ name: 'lookup_pipeline', args: { action: 'stats' } }] })));
    writeFileSync(path.join(dir, 'main.oxoflow'), RNA);
    const r = await runCliAsync(['--json', 'lint', '--ai'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.ai.status).toBe('incomplete');
    expect(doc.ai.diagnostics.map((d: { code: string }) => d.code)).toContain('AI015');
    expect(fake.requests).toHaveLength(6);
  });
});
