// docs/mcp.md's troubleshooting table covers every MCP, TOOL and APR code of the registry, and no other.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { mcpCodes } from '../../../src/diagnostics/codes/mcp.js';

const doc = readFileSync(path.resolve(__dirname, '../../../docs/mcp.md'), 'utf8');

describe('docs/mcp.md', () => {
  it('has a troubleshooting row for every code', () => {
    const rows = [...doc.matchAll(/^\| ((?:MCP|TOOL|APR)\d{3}) \|/gm)].map((m) => m[1]);
    expect([...rows].sort()).toEqual(Object.keys(mcpCodes).sort());
  });
});
