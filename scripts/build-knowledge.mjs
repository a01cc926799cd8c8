#!/usr/bin/env node
// Compiles skills-builtin/ and knowledge-graph/ into dist/knowledge-index.json, and the built-in
// skills' front matter into dist/builtin-skills.json for discovery (after scripts/transpile.mjs, which built the
// compiler into dist/). A broken graph or a built-in skill that does not parse fails the
// build; docs/knowledge.md says what is checked.
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const { compileKnowledge } = await import(`${root}dist/ai/knowledge/compile.js`);
const { index, manifest, problems } = compileKnowledge(root);
if (problems.length > 0) {
  process.stderr.write(`knowledge index: ${problems.length} problem(s)\n${problems.map((p) => `  ${p}`).join('\n')}\n`);
  process.exit(1);
}
const text = JSON.stringify(index);
writeFileSync(`${root}dist/knowledge-index.json`, text);
// What `ai status` and other discovery list for the built-in scope, without opening every file.
if (manifest) writeFileSync(`${root}dist/builtin-skills.json`, JSON.stringify(manifest));
else rmSync(`${root}dist/builtin-skills.json`, { force: true });
console.log(
  `knowledge index: dist/knowledge-index.json (${(text.length / 1024).toFixed(0)} KiB): ${index.skills.length} skills, ` +
    `${Object.keys(index.postings).length} terms, ${JSON.parse(index.graph).nodes.length} graph nodes, ${JSON.parse(index.graph).edges.length} edges`,
);
