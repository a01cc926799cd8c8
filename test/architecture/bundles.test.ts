// Build guards on dist/ (the test script builds first): no AI code in the core bundle, and the split
// between the two bundles follows the command table and nothing else.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/command-table.js';

const DIST = path.resolve(__dirname, '../../dist');
const read = (name: string) => readFileSync(path.join(DIST, name), 'utf8');
type Summary = { inputs: string[]; external: string[] };
const bundles = JSON.parse(read('bundle-inputs.json')) as Record<'oxo-flow.cjs' | 'oxo-flow-more.cjs' | 'oxo-flow-lookup.cjs' | 'oxo-flow-net.cjs', Summary>;

describe('bundles', () => {
  it('the core bundle holds no AI layer: only the leaves secrets.ts and providers/registry.ts of src/ai, and none of its packages', () => {
    const core = bundles['oxo-flow.cjs'].inputs;
    expect(core.length).toBeGreaterThan(20);
    expect(core.filter((f) => f.startsWith('dist/ai/')).sort()).toEqual(['dist/ai/providers/registry.js', 'dist/ai/secrets.js']);
    expect(core.filter((f) => /node_modules\/(undici|eventsource-parser|prompts|gray-matter|js-yaml)\//.test(f))).toEqual([]);
    for (const c of COMMANDS.filter((e) => e.bundle === 'more')) expect(core, c.module).not.toContain(`dist/${c.module}`);
  });

  it('the core holds every command module of the table marked `core`', () => {
    for (const c of COMMANDS.filter((e) => e.bundle === 'core')) expect(bundles['oxo-flow.cjs'].inputs, c.module).toContain(`dist/${c.module}`);
  });

  it('the second bundle holds every command module of the table marked `more`, and the --ai review', () => {
    const more = bundles['oxo-flow-more.cjs'].inputs;
    for (const c of COMMANDS.filter((e) => e.bundle === 'more')) expect(more, c.module).toContain(`dist/${c.module}`);
    expect(more).toContain('dist/cli/ai-review-run.js');
  });
});

describe('every bundle', () => {
  it('is ASCII, so Node holds it as a one-byte string (one character past U+00FF makes the whole file two-byte: slower to read and compile)', () => {
    for (const name of ['oxo-flow.cjs', 'oxo-flow-more.cjs', 'oxo-flow-lookup.cjs', 'oxo-flow-net.cjs']) {
      const text = read(name);
      const at = text.search(/[^\x00-\x7f]/);
      expect(at === -1 ? '' : text.slice(Math.max(0, at - 60), at + 20), name).toBe('');
    }
  });
});

describe('the lookup bundle', () => {
  it('holds the `lookup` commands and the knowledge search, none of the rest of the AI layer, and the core loads it for them', () => {
    const lookup = bundles['oxo-flow-lookup.cjs'].inputs;
    for (const c of COMMANDS.filter((e) => e.bundle === 'lookup')) {
      expect(lookup, c.module).toContain(`dist/${c.module}`);
      expect(bundles['oxo-flow.cjs'].inputs, c.module).not.toContain(`dist/${c.module}`);
    }
    expect(lookup.filter((f) => f.startsWith('dist/ai/') && !f.startsWith('dist/ai/knowledge/'))).toEqual([]);
    expect(lookup.filter((f) => /node_modules\/(undici|gray-matter|js-yaml|smol-toml|commander)\//.test(f))).toEqual([]);
    expect(bundles['oxo-flow.cjs'].external).toContain('./oxo-flow-lookup.cjs');
  });
});

describe('the net bundle', () => {
  it('holds undici and nothing of oxo-flow; the other bundles require it, never undici itself', () => {
    const net = bundles['oxo-flow-net.cjs'].inputs;
    expect(net.some((f) => f.includes('node_modules/undici/'))).toBe(true);
    expect(net.filter((f) => f.startsWith('dist/'))).toEqual([]);
    for (const name of ['oxo-flow.cjs', 'oxo-flow-more.cjs'] as const) {
      expect(bundles[name].inputs.filter((f) => f.includes('node_modules/undici/')), name).toEqual([]);
      expect(bundles[name].external, name).not.toContain('undici');
    }
    expect(bundles['oxo-flow-more.cjs'].external).toContain('./oxo-flow-net.cjs');
  });
});

describe('command table', () => {
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
