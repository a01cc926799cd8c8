// `oxo-flow schema` prints the JSON Schema generated from the loader's zod schema.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli, runCliJson } from '../helpers/run-cli.js';

describe('oxo-flow schema', () => {
  it('prints the committed JSON Schema on stdout', () => {
    const r = runCli(['schema']);
    expect(r.code).toBe(0);
    const printed = JSON.parse(r.stdout) as Record<string, unknown>;
    const committed = JSON.parse(readFileSync(path.resolve(__dirname, '../../schema/oxoflow.schema.json'), 'utf8')) as unknown;
    expect(printed).toEqual(committed);
    expect(printed.required).toEqual(['workflow']);
    const rules = (printed.properties as Record<string, { items: { properties: Record<string, unknown>; additionalProperties: unknown } }>).rules!;
    expect(Object.keys(rules.items.properties)).toContain('expand_inputs');
    expect(rules.items.additionalProperties).toBe(false);
  });

  it('wraps the schema in the standard envelope with --json', () => {
    const r = runCliJson(['schema']);
    expect(r.json).toMatchObject({ command: 'schema', ok: true, exit_code: 0 });
    expect((r.json.schema as Record<string, unknown>).title).toBe('oxo-flow workflow (.oxoflow)');
  });
});
