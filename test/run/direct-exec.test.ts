// A job script that is one plain command is exec'd without /bin/sh (issue 25), through real runs:
// each project runs twice, directly and with OXO_FLOW_DIRECT_EXEC=0 (always sh), and what the run
// reports and what the logs hold must be the same — a missing program (127, sh's message), a file
// that is not executable (126), a script without #! (run by sh, as sh runs it), and a value with
// spaces that stays one word.
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { runCliJson } from '../helpers/run-cli.js';

interface JobJson {
  rule: string;
  outcome: string;
  code?: string;
  message?: string;
}

const RULES: [string, string][] = [
  ['missing', 'no-such-program-oxo {output}'],
  ['noexec', './noexec.sh {output}'],
  ['plain', './plain.sh {output}'],
  ['spaces', './args.sh {output}'],
];

function project(): string {
  const dir = tempDir('oxo-direct-exec-');
  const rules = RULES.map(([name, shell]) => `[[rules]]\nname = "${name}"\noutput = ["${name} out.txt"]\nshell = "${shell}"\n`).join('\n');
  writeFileSync(path.join(dir, 'main.oxoflow'), `[workflow]\nname = "direct"\n\n${rules}`);
  writeFileSync(path.join(dir, 'noexec.sh'), '#!/bin/sh\ntouch "$1"\n');
  writeFileSync(path.join(dir, 'plain.sh'), 'echo "run by sh: $#"\ntouch "$1"\n');
  writeFileSync(path.join(dir, 'args.sh'), '#!/bin/sh\nprintf "[%s]\\n" "$@" > "$1"\n');
  chmodSync(path.join(dir, 'plain.sh'), 0o755);
  chmodSync(path.join(dir, 'args.sh'), 0o755);
  return dir;
}

function runBoth(direct: boolean) {
  const dir = project();
  const r = runCliJson(['run', '-k'], { cwd: dir, env: direct ? {} : { OXO_FLOW_DIRECT_EXEC: '0' } });
  const jobs = Object.fromEntries((r.json.jobs as JobJson[]).map((j) => [j.rule, { outcome: j.outcome, code: j.code, message: j.message }]));
  // Each log without its header's time stamp.
  const log = (rule: string) => {
    try {
      return readFileSync(path.join(dir, '.oxo-flow', 'logs', `${rule}.log`), 'utf8').replace(/, \d{4}-\d\d-\d\dT[\d:.]+Z/g, '');
    } catch {
      return undefined;
    }
  };
  return { code: r.code, jobs, logs: Object.fromEntries(RULES.map(([rule]) => [rule, log(rule)])), dir };
}

describe('a plain command exec\'d directly', () => {
  it('ends every way exactly as through sh: 127 and sh\'s message, 126, a script without #!, a value with spaces', () => {
    const direct = runBoth(true);
    const viaSh = runBoth(false);
    expect(direct.code).toBe(1);
    expect({ ...direct, dir: '' }).toEqual({ ...viaSh, dir: '' });
    expect(direct.jobs.missing).toMatchObject({ outcome: 'failed' });
    expect(direct.jobs.missing!.message).toMatch(/127/);
    expect(direct.logs.missing).toMatch(/sh: 1: no-such-program-oxo: not found/);
    expect(direct.jobs.noexec!.message).toMatch(/126/);
    expect(direct.logs.noexec).toMatch(/Permission denied/);
    expect(direct.jobs.plain).toMatchObject({ outcome: 'done' });
    expect(direct.logs.plain).toMatch(/run by sh: 1/);
    expect(direct.jobs.spaces).toMatchObject({ outcome: 'done' });
    expect(readFileSync(path.join(direct.dir, 'spaces out.txt'), 'utf8')).toBe('[spaces out.txt]\n');
  }, 120_000);
});
