// The build-time manifest of the built-in library lists exactly what reading the files would, and
// is ignored as soon as it no longer matches the files.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { compileKnowledge } from '../../../src/ai/knowledge/compile.js';
import { prebuiltBuiltins } from '../../../src/ai/skills/builtin-manifest.js';
import { discoverInRoots, loadSkillBody, skillSha256 } from '../../../src/ai/skills/discover.js';
import { BUILTIN_DIR } from '../../helpers/builtin-skills.js';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const tmp = mkdtempSync(path.join(os.tmpdir(), 'oxo-manifest-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));
const { manifest } = compileKnowledge(ROOT);

describe('built-in skills manifest', () => {
  it('exists (every built-in skill is clean) and lists what discovery reads from the files', () => {
    expect(manifest).toBeDefined();
    const file = path.join(tmp, 'builtin-skills.json');
    writeFileSync(file, JSON.stringify(manifest));
    const prebuilt = prebuiltBuiltins(BUILTIN_DIR, file);
    expect(prebuilt).toBeDefined();
    const fromManifest = discoverInRoots([{ scope: 'builtin', dir: BUILTIN_DIR }], { ...(prebuilt ? { prebuilt } : {}) }).skills;
    const fromFiles = discoverInRoots([{ scope: 'builtin', dir: BUILTIN_DIR }]).skills;
    // Discovery from files reads front matter only; the bodies (and so their sha256) come on demand.
    for (const s of fromFiles) loadSkillBody(s);
    const view = (s: (typeof fromFiles)[number]) => ({
      name: s.name, scope: s.scope, format: s.format, type: s.type, status: s.status, path: s.path, dir: s.dir, description: s.description,
      version: s.version, metadata: s.metadata, domains: s.domains, primaryTool: s.primaryTool, sizeBytes: s.sizeBytes, findings: s.findings,
      prompt: s.prompt, sha256: skillSha256(s),
    });
    expect(fromManifest.map(view)).toEqual(fromFiles.map(view));
  });

  it('is not used when a skill file changed size or the directories differ', () => {
    const changed = { ...manifest!, skills: manifest!.skills.map((s, i) => (i === 0 ? { ...s, size: s.size + 1 } : s)) };
    writeFileSync(path.join(tmp, 'stale.json'), JSON.stringify(changed));
    expect(prebuiltBuiltins(BUILTIN_DIR, path.join(tmp, 'stale.json'))).toBeUndefined();
    writeFileSync(path.join(tmp, 'short.json'), JSON.stringify({ ...manifest!, skills: manifest!.skills.slice(1) }));
    expect(prebuiltBuiltins(BUILTIN_DIR, path.join(tmp, 'short.json'))).toBeUndefined();
    expect(prebuiltBuiltins(BUILTIN_DIR, path.join(tmp, 'missing.json'))).toBeUndefined();
  });
});
