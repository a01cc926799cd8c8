// The live display under a real terminal (util-linux `script`, a pty of 45 and of 20 columns): it
// names the running jobs with their elapsed time, shows done / failed / left and the total time, and
// redraws in place: no line ever reaches the terminal's width (so nothing wraps) and the block does
// not grow while it redraws. A small terminal model replays what the program wrote.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/plan-workflow.js';
import { CLI, childEnv } from '../helpers/run-cli.js';
import { onPath } from '../helpers/tools.js';

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

function underPty(cols: number, dir: string, args: readonly string[] = []): Promise<string> {
  const command = `stty cols ${cols} rows 40; exec ${[process.execPath, CLI, 'run', '-j', '2', ...args].map(q).join(' ')}`;
  return new Promise((resolve) => {
    const child = spawn('script', ['-q', '-e', '-c', command, '/dev/null'], { cwd: dir, env: childEnv({ CI: undefined }), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('close', () => resolve(out));
  });
}

/** Replays output on a terminal `cols` wide with unlimited rows: the rows it ends with and how often a line wrapped. */
function replay(text: string, cols: number): { rows: string[]; wraps: number } {
  const rows: string[][] = [[]];
  let r = 0;
  let c = 0;
  let wraps = 0;
  const row = (i: number) => (rows[i] ??= []);
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\x1b' && text[i + 1] === '[') {
      const m = /^\x1b\[([0-9;?]*)([A-Za-z])/.exec(text.slice(i));
      if (!m) continue;
      i += m[0].length - 1;
      const n = Number(m[1] || '1');
      if (m[2] === 'A') r = Math.max(0, r - n);
      else if (m[2] === 'K') row(r).length = Math.min(row(r).length, c);
      else if (m[2] === 'J') {
        row(r).length = Math.min(row(r).length, c);
        rows.length = r + 1;
      }
      continue;
    }
    if (ch === '\r') c = 0;
    else if (ch === '\n') {
      r++;
      row(r);
    } else {
      if (c >= cols) {
        wraps++;
        r++;
        c = 0;
      }
      row(r)[c++] = ch;
    }
  }
  return { rows: rows.map((x) => Array.from(x, (ch) => ch ?? ' ').join('')), wraps };
}

describe.skipIf(!onPath('script'))('the live display under a real pty', () => {
  for (const cols of [45, 20]) {
    it(`redraws in place at ${cols} columns, naming the running jobs`, async () => {
      const dir = tempDir('oxo-pty-');
      writeFileSync(
        path.join(dir, 'main.oxoflow'),
        `[workflow]\nname = "pty"\n\n[[sample_groups]]\nname = "all"\nsamples = ["S1", "S2", "S3"]\n\n[[rules]]\nname = "slow"\noutput = ["out/{sample}.txt"]\nshell = "sleep 2.2; touch {output}"\n`,
      );
      const out = await underPty(cols, dir);
      const live = out.slice(0, out.indexOf('Summary:'));
      expect(live).toContain(cols >= 45 ? 'slow[sample=S1]' : 'slow[');
      expect(live).toMatch(/0:0[1-9]/);
      if (cols >= 45) expect(live).toMatch(/done.*left/);
      const { rows, wraps } = replay(live, cols);
      expect(wraps, 'a line of the live display reached the terminal width').toBe(0);
      // Redrawn in place: what is left on screen is the last block (the status line and the jobs), not one line per redraw.
      expect(rows.filter((l) => l.trim() !== '').length).toBeLessThanOrEqual(4);
      expect(out).toContain('Summary:');
    }, 60_000);
  }
});

describe.skipIf(!onPath('script'))('the live display hides sensitive values', () => {
  // A sensitive list feeds a scatter (so job ids carry its values) and a sensitive token names an
  // output directory that a failing job does not write (so the failure message carries it).
  const secretTag = 'alphaSECRETtag';
  const token = 'hunter2TOKENvalue';
  const workflow = [
    '[workflow]',
    'name = "sens"',
    '',
    '[config]',
    `tags = { default = ["${secretTag}", "beta"], sensitive = true }`,
    'token = { default = "placeholder", sensitive = true }',
    '',
    '[[rules]]',
    'name = "scat"',
    'output = ["out/{tag}.txt"]',
    'shell = "sleep 1.2; touch {output}"',
    '[rules.scatter]',
    'variable = "tag"',
    'values_from = "config.tags"',
    '',
    '[[rules]]',
    'name = "miss"',
    'output = ["out/{config.token}/never.txt"]',
    'shell = "sleep 1.2; true"',
    '',
  ].join('\n');
  for (const cols of [80, 20]) {
    it(`no secret, nor the start of one, at ${cols} columns: ids, failure lines and the run log`, async () => {
      const dir = tempDir('oxo-pty-secret-');
      writeFileSync(path.join(dir, 'main.oxoflow'), workflow);
      const out = await underPty(cols, dir, [`token=${token}`]);
      expect(out).toContain('Summary:');
      expect(out).toContain(cols >= 45 ? 'scat[tag=***]' : 'scat[');
      expect(out, 'the failing job is reported').toMatch(/failed/);
      // Cut to 20 columns, a line must not keep the first characters of a secret either.
      for (const secret of [secretTag, token]) expect(out).not.toContain(secret.slice(0, 8));
      // The run record: its log (what the terminal showed) and every other file of it.
      const runs = path.join(dir, '.oxo-flow', 'runs');
      const record = path.join(runs, readdirSync(runs)[0]!);
      expect(readFileSync(path.join(record, 'log.txt'), 'utf8')).toContain('scat[tag=***]');
      for (const file of readdirSync(record)) {
        const text = readFileSync(path.join(record, file), 'utf8');
        for (const secret of [secretTag, token]) expect(text, file).not.toContain(secret);
      }
    }, 60_000);
  }
});
