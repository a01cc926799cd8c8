// Issue 17's smaller holes in the runner's file handling: a protected output that is a symbolic link
// never has its target made read-only, and two job ids never share one log file.
import { chmodSync, mkdtempSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { protect } from '../../src/run/outputs.js';
import { logName } from '../../src/run/state.js';

let dir: string;
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('the runner\'s own files', () => {
  it('protect() makes a real output read-only, and never chmods through a symbolic link', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'oxo-protect-'));
    const someoneElses = path.join(dir, 'not-ours.txt');
    writeFileSync(someoneElses, 'x');
    chmodSync(someoneElses, 0o644);
    symlinkSync(someoneElses, path.join(dir, 'link.txt'));
    writeFileSync(path.join(dir, 'real.txt'), 'y');
    chmodSync(path.join(dir, 'real.txt'), 0o644);
    protect(['link.txt', 'real.txt'], dir);
    expect(statSync(someoneElses).mode & 0o777).toBe(0o644);
    expect(statSync(path.join(dir, 'real.txt')).mode & 0o777).toBe(0o444);
  });

  it('gives ids that read the same after replacement their own log files, and keeps plain ids readable', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'oxo-logname-'));
    const ids = ['align[sample=a b]', 'align[sample=a_b]', 'align_sample=a_b_', 'align[sample=a/b]'];
    expect(new Set(ids.map(logName)).size).toBe(ids.length);
    expect(logName('multiqc')).toBe('multiqc.log');
    expect(logName('align[sample=S1]')).toMatch(/^align_sample=S1_-[0-9a-f]{8}\.log$/);
    expect(Buffer.byteLength(logName(`x[sample=${'s'.repeat(400)}]`))).toBeLessThanOrEqual(255);
  });
});
