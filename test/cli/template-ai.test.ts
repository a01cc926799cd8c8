// `template --ai` end to end: the built CLI against the fake OpenAI server. Drafts go through the
// same validation as `oxo-flow validate`; only a valid one is written, never over an existing file
// without --force; an MCP tool call the model asks for is refused under CI=true and recorded.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeLlm, type FakeLlm, type FakeReply } from '../helpers/fake-llm.js';
import { runCliAsync } from '../helpers/mcp-cli.js';
import { makeToolSkillProject } from '../helpers/mcp-project.js';
import { startSdkFixture, type SdkFixture } from '../helpers/mcp-sdk-server.js';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCli } from '../helpers/run-cli.js';

const KEY = 'sk-FAKEKEY-template-91b2c3d4';
const VALID = `[workflow]
name = "rna"
description = "paired-end RNA-seq"
author = "lab"

[[rules]]
name = "count"
description = "count reads"
output = ["results/counts.txt"]
log = "logs/count.log"
shell = "echo counts > {output} 2> {log}"
`;
const INVALID = '[workflow]\ndescription = "no name"\n\n[[rules]]\nname = "a"\nshell = "echo"\n';
const fenced = (toml: string) => `Here is the workflow:\n\n\`\`\`toml\n${toml}\`\`\`\n`;

let fake: FakeLlm | undefined;
let mcp: SdkFixture | undefined;
afterEach(async () => {
  await fake?.close();
  await mcp?.close();
  fake = mcp = undefined;
});

async function setup(replies: FakeReply[], dir = tempDir('oxo-template-ai-')) {
  fake = await startFakeLlm(replies);
  const home = path.join(dir, 'home-for-test');
  mkdirSync(home, { recursive: true });
  writeFileSync(path.join(home, 'ai_config.json'), JSON.stringify({ schema_version: 1, retries: { max: 0 } }));
  const env = { OXO_FLOW_HOME: home, OXO_FLOW_AI_PROVIDER: 'openai', OXO_FLOW_AI_BASE_URL: fake.baseUrl, OPENAI_API_KEY: KEY, OXO_FLOW_AI_MODEL: 'test-model' };
  return { dir, env, fake };
}

const sessionsOf = (dir: string) => {
  const d = path.join(dir, '.oxo-flow', 'ai_sessions');
  return existsSync(d) ? readdirSync(d).map((f) => readFileSync(path.join(d, f), 'utf8')) : [];
};

describe('template --ai', () => {
  it('a first draft that fails validation, then one that passes: the second is written, and validates', async () => {
    const { dir, env, fake } = await setup([{ kind: 'answer', text: fenced(INVALID) }, { kind: 'answer', text: fenced(VALID) }]);
    const r = await runCliAsync(['--json', 'template', '--ai', 'paired-end RNA-seq, STAR + featureCounts, 6 samples in 2 groups', '-o', 'rna.oxoflow'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ status: 'written', written: true, rounds: 2 });
    expect(readFileSync(path.join(dir, 'rna.oxoflow'), 'utf8')).toBe(VALID);
    expect(runCli(['validate', 'rna.oxoflow'], { cwd: dir }).code).toBe(0);
    // The validator's diagnostics went back to the model.
    const second = fake.requests[1]!.body.messages as { role: string; content: string }[];
    expect(second[second.length - 1]!.content).toMatch(/oxo-flow validate found these problems[\s\S]*\[ERROR\]/);
    // The built-in skills matching the intent's steps are named (bodies come through read_skill).
    expect(fake.requests[0]!.body.messages[0].content).toContain('- builtin/featurecounts-count: ');
    expect(r.stdout + r.stderr + sessionsOf(dir).join('')).not.toContain(KEY);
  });

  it('a draft with Snakemake spellings is not called validated: E031 goes back to the model, the fixed draft is written', async () => {
    const snakemakeish = VALID.replace('shell = "echo counts > {output} 2> {log}"', 'shell = "echo counts {wildcards.sample} {resources.mem_mb} > {output} 2> {log}"');
    const { dir, env, fake } = await setup([{ kind: 'answer', text: fenced(snakemakeish) }, { kind: 'answer', text: fenced(VALID) }]);
    const r = await runCliAsync(['--json', 'template', '--ai', 'count reads', '-o', 'c.oxoflow'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'written', rounds: 2 });
    const second = fake.requests[1]!.body.messages as { role: string; content: string }[];
    const feedback = second[second.length - 1]!.content;
    expect(feedback).toContain('E031');
    expect(feedback).toContain('did you mean {sample}?');
    expect(feedback).toContain('did you mean {memory}?');
    expect(readFileSync(path.join(dir, 'c.oxoflow'), 'utf8')).toBe(VALID);
  });

  it('never valid: exit 1 with the last diagnostics, nothing written', async () => {
    const { dir, env } = await setup(Array.from({ length: 5 }, () => ({ kind: 'answer' as const, text: fenced(INVALID) })));
    const r = await runCliAsync(['template', '--ai', 'something', '-o', 'x.oxoflow'], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(existsSync(path.join(dir, 'x.oxoflow'))).toBe(false);
    expect(r.stderr).toContain('AI020');
    expect(r.stderr).toMatch(/draft of x\.oxoflow.*error/);
    expect(r.stdout + r.stderr).not.toContain(KEY);
  });

  it('a bare TOML answer (no fence) is accepted', async () => {
    const { dir, env } = await setup([{ kind: 'answer', text: VALID }]);
    const r = await runCliAsync(['template', '--ai', 'x', '-o', 'bare.oxoflow'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'bare.oxoflow'), 'utf8')).toBe(VALID);
  });

  it('an existing file is refused without --force (no request is made), replaced with it', async () => {
    const { dir, env, fake } = await setup([{ kind: 'answer', text: fenced(VALID) }]);
    writeFileSync(path.join(dir, 'main.oxoflow'), 'keep me\n');
    const r = await runCliAsync(['template', '--ai', 'x'], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('CLI004');
    expect(readFileSync(path.join(dir, 'main.oxoflow'), 'utf8')).toBe('keep me\n');
    expect(fake.requests).toHaveLength(0);
    const forced = await runCliAsync(['template', '--ai', 'x', '--force'], { cwd: dir, env });
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(path.join(dir, 'main.oxoflow'), 'utf8')).toBe(VALID);
  });

  it('an MCP tool call the model asks for is refused under CI=true, the model is told, the session says so', async () => {
    mcp = await startSdkFixture({ mode: 'json', lifetimeMs: 600_000 });
    const project = makeToolSkillProject({ name: 'clinvar', url: mcp.url });
    const { dir, env, fake } = await setup(
      [
        { kind: 'answer', text: 'Let me clean up first.', toolCalls: [{ name: 'mcp_clinvar_delete_records', args: { gene: 'BRCA1' } }, { name: 'validate_workflow', args: { toml: VALID } }] },
        { kind: 'answer', text: fenced(VALID) },
      ],
      project.dir,
    );
    const r = await runCliAsync(['template', '--ai', 'x', '-o', 'wf.oxoflow'], { cwd: dir, env: { ...env, CI: 'true' } });
    expect(r.code, r.stderr).toBe(0);
    expect(mcp.calls).toEqual([]);
    const toolMessages = (fake.requests[1]!.body.messages as { role: string; content: string; tool_call_id?: string }[]).filter((m) => m.role === 'tool');
    expect(toolMessages[0]!.content).toMatch(/refused.*CI/);
    expect(toolMessages[1]!.content).toMatch(/^valid: no errors/);
    const [record] = sessionsOf(dir).map((t) => JSON.parse(t));
    expect(record.tool_calls).toMatchObject([
      { tool: 'mcp_clinvar_delete_records', origin: 'mcp:clinvar', args: { gene: 'BRCA1' }, decision: 'refused' },
      { tool: 'validate_workflow', origin: 'builtin', decision: 'auto' },
    ]);
    expect(record.tool_calls[0].reason).toMatch(/CI is set/);
    expect(record.tools_offered.map((t: { name: string }) => t.name)).toContain('mcp_clinvar_delete_records');
    expect(record.outcome).toEqual({ status: 'written' });
  });

  it('no provider: exit 1 with how to set one up', async () => {
    const dir = tempDir('oxo-template-ai-');
    const r = await runCliAsync(['template', '--ai', 'x'], { cwd: dir, env: { OXO_FLOW_HOME: path.join(dir, 'h'), OXO_FLOW_AI_PROVIDER: undefined, OPENAI_API_KEY: undefined, ANTHROPIC_API_KEY: undefined, DEEPSEEK_API_KEY: undefined } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('AI013');
    expect(existsSync(path.join(dir, 'main.oxoflow'))).toBe(false);
  });

  it('a realistic session converges with the default settings: three tool calls, a Snakefile, a draft without [workflow], then the fix', async () => {
    const INTENT = 'paired-end RNA-seq, STAR + featureCounts, then DESeq2';
    const snakefile = 'Here is a pipeline:\n\n```python\nrule all:\n    input: expand("counts/{sample}.txt", sample=SAMPLES)\n\nrule align:\n    input: "raw/{sample}.fq"\n    output: "bam/{sample}.bam"\n    shell: "STAR --readFilesIn {input} > {output}"\n```\n';
    const noWorkflowTable = `Converted to oxo-flow. Run it with:\n\n\`\`\`bash\noxo-flow run rna.oxoflow -j 2\n\`\`\`\n\nThe workflow:\n\n\`\`\`toml\n${VALID.slice(VALID.indexOf('[[rules]]'))}\`\`\`\n`;
    const fixed = `You are right, the [workflow] table was missing.\n\n\`\`\`bash\noxo-flow validate rna.oxoflow\n\`\`\`\n\n\`\`\`toml\n${VALID}\`\`\`\nThat should validate now.`;
    const { dir, env, fake } = await setup([
      { kind: 'answer', text: 'Let me look up the tools first.', toolCalls: [{ name: 'lookup_skill', args: { query: 'STAR spliced alignment' } }] },
      { kind: 'answer', toolCalls: [{ name: 'read_skill', args: { name: 'builtin/star-align' } }] },
      { kind: 'answer', toolCalls: [{ name: 'read_format', args: { what: 'sample-fanout' } }] },
      { kind: 'answer', text: snakefile },
      { kind: 'answer', text: noWorkflowTable },
      { kind: 'answer', text: fixed },
    ]);
    const r = await runCliAsync(['--json', 'template', '--ai', INTENT, '-o', 'rna.oxoflow'], { cwd: dir, env });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({
      status: 'written',
      written: true,
      rounds: 6,
      drafts: 3,
      tool_calls: [
        { tool: 'lookup_skill', decision: 'auto' },
        { tool: 'read_skill', decision: 'auto' },
        { tool: 'read_format', decision: 'auto' },
      ],
    });
    expect(readFileSync(path.join(dir, 'rna.oxoflow'), 'utf8')).toBe(VALID);
    expect(runCli(['validate', 'rna.oxoflow'], { cwd: dir }).code).toBe(0);
    expect(fake.requests).toHaveLength(6);
    const last = (i: number) => {
      const messages = fake.requests[i]!.body.messages as { role: string; content: string }[];
      return messages[messages.length - 1]!;
    };
    // The tools answered: the lookup, a built-in skill read by name, a template's text.
    expect(last(1)).toMatchObject({ role: 'tool' });
    expect(last(1).content).toContain('star-align');
    expect(last(2).content).toContain('# STAR alignment');
    expect(last(3).content).toContain('expand_inputs');
    // The Snakefile is "no workflow"; the bash block before the toml block is skipped and the
    // draft without [workflow] gets the validator's E025, not "no workflow".
    expect(last(4).content).toMatch(/holds no oxo-flow workflow/);
    expect(last(5).content).toMatch(/oxo-flow validate found these problems[\s\S]*E025/);
    // The system prompt carries the format reference.
    const system = fake.requests[0]!.body.messages[0].content as string;
    for (const word of ['[[sample_groups]]', 'expand_inputs', '{wildcards.sample}', '{config.key}']) expect(system).toContain(word);
  });

  it('a model that only ever calls tools ends (the tool-round cap): exit 1, nothing written', async () => {
    const { dir, env, fake } = await setup([], undefined);
    fake.queue.push(...Array.from({ length: 30 }, () => ({ kind: 'answer' as const, toolCalls: [{ name: 'lookup_pipeline', args: { action: 'stats' } }] })));
    const r = await runCliAsync(['--json', 'template', '--ai', 'x', '-o', 'x.oxoflow'], { cwd: dir, env });
    expect(r.code).toBe(1);
    expect(existsSync(path.join(dir, 'x.oxoflow'))).toBe(false);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ status: 'no_valid_draft', drafts: 0 });
    expect(doc.diagnostics.map((d: { code: string }) => d.code)).toContain('AI020');
    expect(fake.requests.length).toBeLessThan(30);
  });
});
