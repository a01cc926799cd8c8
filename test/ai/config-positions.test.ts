// Each of the AI layer's hand-written files reports a wrong type and an unknown key at file:line:col
// (TOML through the key-position index, JSON through its own index, YAML front matter at the key's
// line), with its own codes.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseAiToml } from '../../src/ai/project.js';
import { resolveProvider } from '../../src/ai/providers/resolve.js';
import { parseMdSkill } from '../../src/ai/skills/parse-md-skill.js';
import { parseTomlSkill } from '../../src/ai/skills/parse-toml-skill.js';
import type { Diagnostic } from '../../src/diagnostics/diagnostic.js';

const placed = (ds: readonly Diagnostic[]) => ds.map((d) => [d.code, d.line, d.column, d.message]);

describe('.oxo-flow/ai.toml', () => {
  it('a wrong type inside a command table and an unknown key are placed at their keys', () => {
    const c = parseAiToml('[ai]\nskills = ["a"]\nmax_rounds = 0\n\n[ai.lint]\n  skills = [1]\n  modle = "x"\n', '/p/.oxo-flow/ai.toml', '/p');
    expect(placed(c.diagnostics)).toEqual([
      ['SK041', 3, 1, '`ai.max_rounds` must be a positive integer, found an integer'],
      ['SK041', 6, 13, '`ai.lint.skills[0]` must be a string, found an integer'],
      ['SK042', 7, 3, 'unknown key `modle` in [ai.lint]'],
    ]);
    expect(c.table.skills).toEqual(['a']);
    expect(c.table.maxRounds).toBeUndefined();
    expect(c.table.commands).toEqual({});
  });

  it('a key outside [ai] is unknown, with where settings belong', () => {
    const c = parseAiToml('model = "x"\n[ai]\nenabled = true\n', 'ai.toml', '/p');
    expect(placed(c.diagnostics)).toEqual([['SK042', 1, 1, 'unknown key `model` in ai.toml']]);
    expect(c.diagnostics[0]!.hint).toBe('settings live in an [ai] table');
    expect(c.table.enabled).toBe(true);
  });
});

describe('ai_config.json', () => {
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(path.join(os.tmpdir(), 'oxo-home-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  it('a wrong type and an unknown key are warnings at file:line:col; the other fields still count', () => {
    const file = path.join(home, 'ai_config.json');
    writeFileSync(
      file,
      ['{', '  "schema_version": 1,', '  "provider": "ollama",', '  "modle": "llama3",', '  "timeouts": { "connect_ms": "10s", "idle_ms": 5 },', '  "models": [{ "id": "m", "aliases": "fast" }]', '}', ''].join('\n'),
    );
    const p = resolveProvider({ env: {}, homeDir: home });
    expect(p.diagnostics.map((d) => [d.code, d.severity, d.file, d.line, d.column, d.message])).toEqual([
      ['CFG002', 'warning', file, 4, 3, 'unknown key `modle` in ai_config.json; did you mean `model`?'],
      ['CFG001', 'warning', file, 5, 17, '`timeouts.connect_ms` must be a non-negative number, found a string'],
      ['CFG001', 'warning', file, 6, 27, '`models[0].aliases` must be an array of strings, found a string'],
    ]);
    expect(p).toMatchObject({ kind: 'ollama', kindSource: 'ai_config.json', http: { idleTimeoutMs: 5 }, models: [] });
  });

  it('an unknown schema_version is still refused as a whole, before any field is checked', () => {
    writeFileSync(path.join(home, 'ai_config.json'), '{"schema_version": 2, "provider": 3}');
    expect(resolveProvider({ env: {}, homeDir: home }).diagnostics.map((d) => d.code)).toEqual(['PV003']);
  });
});

describe('.skill.toml', () => {
  it('a wrong type in [mcp] and an unknown key are placed at their keys; a numeric version is told to be quoted', () => {
    const text = 'name = "t"\nversion = 1.0\ndescription = "d"\nskill_type = "tool"\nrequires = ["mcp://h:1/mcp"]\nsumary = "x"\n\n[mcp]\ncall_timeout_ms = "60s"\nheaders = { X = "y" }\n';
    const s = parseTomlSkill(text, 't.skill.toml', 't');
    expect(placed(s.findings)).toEqual([
      ['SK004', 2, 1, '`version` must be a string, found an integer'],
      ['SK006', 6, 1, 'unknown key `sumary` in the skill file'],
      ['SK004', 9, 1, '`mcp.call_timeout_ms` must be a positive integer, found a string'],
    ]);
    expect(s.findings[0]!.hint).toBe('quote it: version = "1.0"');
    expect(s.mcp).toMatchObject({ url: 'http://h:1/mcp', trustAnnotations: true, headers: { X: 'y' } });
    expect(s.mcp?.callTimeoutMs).toBeUndefined();
  });

  it('a skill_type outside the two kinds keeps its own code', () => {
    const s = parseTomlSkill('name = "t"\nversion = "1"\ndescription = "d"\nskill_type = "validator"\n', 't.skill.toml', 't');
    expect(placed(s.findings)).toEqual([['SK017', 4, 1, '`skill_type` is "validator"; it must be "knowledge" or "tool"']]);
  });
});

describe('SKILL.md front matter', () => {
  it('a wrong type and an unknown key are placed at the line of their key', () => {
    const text = '---\nname: s\ndescription: d\nmetadata:\n  domain: qc\n  nested:\n    x: y\nlicence: MIT\n---\nbody\n';
    const s = parseMdSkill(text, 's/SKILL.md', 's');
    expect(placed(s.findings)).toEqual([
      ['SK004', 4, 1, '`metadata.nested` must be a string, found a table'],
      ['SK006', 8, 1, 'unknown key `licence` in the front matter; did you mean `license`?'],
    ]);
    expect(s.metadata).toBeUndefined();
    expect(s.description).toBe('d');
  });

  it('an empty value counts as absent; a missing required field is reported', () => {
    const s = parseMdSkill('---\nname: s\nlicense:\n---\nbody\n', 's/SKILL.md', 's');
    expect(placed(s.findings)).toEqual([['SK003', 2, 1, 'missing required field `description` (a string)']]);
  });
});
