// The options built-in skills name are the tools' own: scripts/check-skill-flags.mjs looks each up in
// the real help text of the Debian tools installed here (the skills whose tool is missing are named and
// left out; .ci/run installs the variant-calling and RNA-seq tools, so CI checks at least those).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../../..');

describe('skill options against the tools\' --help', () => {
  it('finds at least 99 % of the options of every skill whose tool is installed', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts/check-skill-flags.mjs'), '--installed', '--min', '0.99'], { encoding: 'utf8', timeout: 600_000 });
    const summary = /(\d+) of (\d+) options found .* in (\d+) skills/.exec(r.stdout);
    expect(summary, r.stdout + r.stderr).not.toBeNull();
    const [found, total] = [Number(summary![1]), Number(summary![2])];
    if (total > 0) expect(found / total, r.stdout).toBeGreaterThanOrEqual(0.99);
    expect(r.status, r.stdout).toBe(0);
    if (process.env.OXO_FLOW_REQUIRE_TOOLS === '1') expect(Number(summary![3]), 'skills checked under OXO_FLOW_REQUIRE_TOOLS').toBeGreaterThanOrEqual(5);
  });
});
