// `oxo-flow graph`, run in-process (runInProcess, imported as runCli: src/cli/main.ts on the TypeScript sources).
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { runInProcess as runCli, runInProcessJson as runCliJson } from '../helpers/run-in-process.js';

const WF = `[workflow]
name = "g"

[[rules]]
name = "trim"
input = ["raw/{sample}.fq"]
output = ["t/{sample}.fq"]
shell = "x"

[[rules]]
name = "count"
input = ["t/{sample}.fq"]
output = ["c/{sample}.txt"]
shell = "x"
`;

function project(text = WF): string {
  const dir = tempDir('oxo-graph-');
  writeFileSync(path.join(dir, 'main.oxoflow'), text);
  return dir;
}

describe('oxo-flow graph', () => {
  it('draws the rule graph on stdout without needing samples (ascii, dot, mermaid)', async () => {
    const dir = project();
    const ascii = await runCli(['graph'], { cwd: dir });
    expect(ascii.code).toBe(0);
    expect(ascii.stdout).toBe('g\nlevel 1\n  trim\nlevel 2\n  count  ← trim\n');
    expect((await runCli(['graph', '-f', 'dot'], { cwd: dir })).stdout).toContain('"trim" -> "count";');
    expect((await runCli(['graph', '-f', 'mermaid'], { cwd: dir })).stdout).toBe('flowchart TD\n  n0["trim"]\n  n1["count"]\n  n0 --> n1\n');
  });

  it('--expanded draws jobs and needs a sample source; --json gives nodes and edges', async () => {
    const dir = project();
    expect((await runCli(['graph', '--expanded'], { cwd: dir })).code).toBe(1);
    const r = await runCliJson(['graph', '--expanded', '--samples', 'A,B'], { cwd: dir });
    expect(r.code).toBe(0);
    expect(r.json.nodes).toEqual([
      { id: 'trim[sample=A]', rule: 'trim', level: 0 },
      { id: 'trim[sample=B]', rule: 'trim', level: 0 },
      { id: 'count[sample=A]', rule: 'count', level: 1 },
      { id: 'count[sample=B]', rule: 'count', level: 1 },
    ]);
    expect(r.json.edges).toEqual([
      { from: 'trim[sample=A]', to: 'count[sample=A]' },
      { from: 'trim[sample=B]', to: 'count[sample=B]' },
    ]);
  });
});
