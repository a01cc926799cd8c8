// Layers point one way (conventions.md §Layout): cli → anything; ai and run → workflow; workflow → neither.
// Also: the validate command's static import graph never reaches undici or the AI layer.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../../src');

function listTs(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return listTs(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

const STATIC_IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|^\s*import\s+['"]([^'"]+)['"]/gm;

function staticImports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(STATIC_IMPORT)) {
    const spec = m[1] ?? m[2];
    if (spec && !/^\s*import\s+type\s/.test(m[0]) && !/^\s*export\s+type\s/.test(m[0])) out.push(spec);
  }
  return out;
}

function resolveLocal(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  return path.resolve(path.dirname(from), spec.replace(/\.js$/, '.ts'));
}

const files = listTs(SRC);
/** The modules of src/ai that the deterministic commands may reach: they import nothing. */
const LEAVES = ['ai/secrets.ts', 'ai/providers/registry.ts'];
const area = (file: string) => path.relative(SRC, file).split(path.sep).slice(0, 2).join('/');

describe('layering', () => {
  it('finds the source tree', () => {
    expect(files.length).toBeGreaterThan(10);
  });

  it('src/workflow imports neither src/ai, src/run nor src/cli', () => {
    const offenders: string[] = [];
    for (const file of files.filter((f) => area(f).startsWith('workflow'))) {
      for (const spec of staticImports(file)) {
        const target = resolveLocal(file, spec);
        if (target && /^(ai|run|cli)(\/|$)/.test(path.relative(SRC, target))) offenders.push(`${path.relative(SRC, file)} → ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('src/ai/mcp and src/ai/providers never import each other', () => {
    const offenders: string[] = [];
    for (const file of files) {
      const rel = path.relative(SRC, file);
      for (const spec of staticImports(file)) {
        const target = resolveLocal(file, spec);
        if (!target) continue;
        const trel = path.relative(SRC, target);
        if ((rel.startsWith('ai/mcp/') && trel.startsWith('ai/providers/')) || (rel.startsWith('ai/providers/') && trel.startsWith('ai/mcp/')))
          offenders.push(`${rel} → ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });

  it('no module under src/ refers to the specification folder beside the project (a user clone has none)', () => {
    const outside = new RegExp(['\\.\\./', 'shared'].join('') + '|/work/' + 'shared');
    const offenders = files.filter((f) => outside.test(readFileSync(f, 'utf8')));
    expect(offenders).toEqual([]);
  });

  it('validate and dry-run statically reach neither undici nor src/ai', () => {
    for (const entry of ['cli/main.ts', 'cli/commands/validate.ts', 'cli/commands/dry-run.ts']) {
      const seen = new Set<string>();
      const packages = new Set<string>();
      const stack = [path.join(SRC, entry)];
      while (stack.length > 0) {
        const file = stack.pop()!;
        if (seen.has(file)) continue;
        seen.add(file);
        for (const spec of staticImports(file)) {
          const target = resolveLocal(file, spec);
          if (target) stack.push(target);
          else packages.add(spec);
        }
      }
      const reached = [...seen].map((f) => path.relative(SRC, f));
      // ai/secrets.ts is a leaf of string functions (below): output is scrubbed of secrets on every path.
      // ai/providers/registry.ts is a leaf of data: the command line's help names the provider kinds.
      expect(reached.filter((f) => f.startsWith('ai/') && !LEAVES.includes(f)), entry).toEqual([]);
      expect([...packages].filter((p) => p === 'undici' || p === 'eventsource-parser' || p === 'prompts'), entry).toEqual([]);
    }
  });

  it('the two modules every layer may use, terminal-safe.ts and secrets.ts, import nothing', () => {
    for (const leaf of ['cli/terminal-safe.ts', ...LEAVES]) expect(staticImports(path.join(SRC, leaf)), leaf).toEqual([]);
  });

  it('src/ai imports from src/cli only terminal-safe.ts', () => {
    const offenders: string[] = [];
    for (const file of files.filter((f) => area(f).startsWith('ai'))) {
      for (const spec of staticImports(file)) {
        const target = resolveLocal(file, spec);
        const trel = target && path.relative(SRC, target);
        if (trel?.startsWith('cli/') && trel !== 'cli/terminal-safe.ts') offenders.push(`${path.relative(SRC, file)} → ${spec}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
