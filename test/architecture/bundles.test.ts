// Build guards on dist/ (the test script builds first): no dynamic import left in a bundle (code run
// from a V8 code cache has no loader for one), no AI code in the core bundle, and the bundle split
// follows the command table and nothing else.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/command-table.js';

const DIST = path.resolve(__dirname, '../../dist');
const read = (name: string) => readFileSync(path.join(DIST, name), 'utf8');
const inputs = JSON.parse(read('bundle-inputs.json')) as Record<'oxo-flow.cjs' | 'oxo-flow-more.cjs' | 'oxo-flow-review.cjs', string[]>;

describe('bundles', () => {
  it.each(['oxo-flow.cjs', 'oxo-flow-more.cjs', 'oxo-flow-review.cjs'])('%s has no import( left', (name) => {
    expect(read(name)).not.toMatch(/\bimport\(/);
  });

  it('the core bundle holds no AI layer: only the leaves secrets.ts and providers/registry.ts of src/ai, and none of its packages', () => {
    const core = inputs['oxo-flow.cjs'];
    expect(core.length).toBeGreaterThan(20);
    expect(core.filter((f) => f.startsWith('dist/ai/')).sort()).toEqual(['dist/ai/providers/registry.js', 'dist/ai/secrets.js']);
    expect(core.filter((f) => /node_modules\/(undici|eventsource-parser|prompts|gray-matter|js-yaml)\//.test(f))).toEqual([]);
    for (const c of COMMANDS.filter((e) => e.bundle === 'more')) expect(core, c.module).not.toContain(`dist/${c.module}`);
  });

  it('the --ai review has its own bundle, which holds no command of the table', () => {
    expect(inputs['oxo-flow-review.cjs']).toContain('dist/cli/ai-review-run.js');
    for (const c of COMMANDS) expect(inputs['oxo-flow-review.cjs'], c.module).not.toContain(`dist/${c.module}`);
  });

  it('the second bundle holds every command module of the table', () => {
    for (const c of COMMANDS) expect(inputs['oxo-flow-more.cjs'], c.module).toContain(`dist/${c.module}`);
  });

  it('the launcher sends exactly the first words of the table’s second-bundle commands there', () => {
    const words = [...new Set(COMMANDS.filter((c) => c.bundle === 'more').map((c) => c.path[0]))].sort();
    expect((JSON.parse(read('more-commands.json')) as string[]).sort()).toEqual(words);
  });
});

describe('command table', () => {
  it('commands that share a first word share a bundle (the launcher routes by first word)', () => {
    const byWord = new Map<string, Set<string>>();
    for (const c of COMMANDS) (byWord.get(c.path[0]!) ?? byWord.set(c.path[0]!, new Set()).get(c.path[0]!)!).add(c.bundle);
    for (const [word, bundles] of byWord) expect([word, bundles.size]).toEqual([word, 1]);
  });

  it('each entry loads the module it names', () => {
    const source = readFileSync(path.resolve(__dirname, '../../src/cli/command-table.ts'), 'utf8');
    const chunks = source.split(/\n {2}entry</).slice(1);
    expect(chunks.length).toBe(COMMANDS.length);
    for (const chunk of chunks) {
      const named = /module: '([^']+)'/.exec(chunk)?.[1];
      const loaded = /import\('\.\/([^']+)'\)/.exec(chunk)?.[1];
      expect(loaded && `cli/${loaded}`).toBe(named);
    }
  });
});
