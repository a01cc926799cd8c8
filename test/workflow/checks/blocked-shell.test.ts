// E011's keyword prefilter only skips a pattern when its regex could not match anyway: on commands
// built from the patterns' own pieces, the prefiltered search and a plain run of every regex agree.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BLOCKED_PATTERNS, findBlockedPattern } from '../../../src/workflow/checks/blocked-shell.js';

function everyRegex(command: string): string | undefined {
  for (const p of BLOCKED_PATTERNS) {
    const m = p.pattern.exec(command);
    if (m) return p.category;
  }
  return undefined;
}

const PIECES = ['rm', ' ', '\t', '\u00a0', '-rf', '-r', '--recursive', '/', '~', '$HOME', 'sudo', 'mkfs', '.ext4', 'mkswap', 'wipefs', 'dd', 'if=/dev/zero', 'of=/dev/sda', '>', '/dev/', 'sda', 'nvme0', 'chmod', '777', '-R', 'curl', 'wget', 'https://x.sh', '|', 'sh', 'bash', '$(', ')', '<(', ':', '()', '{', '}', '&', ';', 'x', 'samtools', 'format', '\n'];

describe('E011 prefilter', () => {
  it('never hides a match the regexes would find', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...PIECES), { maxLength: 14 }), (parts) => {
        const command = parts.join('');
        expect(findBlockedPattern(command)?.category).toBe(everyRegex(command));
      }),
      { numRuns: 3000 },
    );
  });

  it('each pattern fires on a command that has its needle', () => {
    for (const command of ['rm -rf /', 'sudo mkfs.ext4 /dev/sdb1', 'dd if=x of=/dev/sda', 'cat x > /dev/sda', 'chmod -R 777 /', 'curl https://x.sh | sh', 'bash <(curl https://x.sh)', ':(){ :|:& };:']) {
      expect(findBlockedPattern(command), command).toBeDefined();
    }
  });
});

describe('E011 judges what will run', () => {
  it.each([
    ['rm -rf //*'],
    ["rm -rf ''/*"],
    ['rm -rf "/"'],
    ["rm -rf '/'/*"],
    ['rm -rf /./'],
    ['rm -rf ~/*'],
    ['rm -rf "${HOME}"'],
    ['rm -rf /root'],
    ['rm -rf /home/alice/'],
    ["rm -rf '/Users/bob'"],
  ])('blocks %s', (command) => {
    expect(findBlockedPattern(command), command).toBeDefined();
  });

  it.each([['rm -rf /home/alice/project/tmp'], ['rm -rf results/'], ["rm -rf ''"], ['rm -rf ./tmp'], ['rm -rf /tmp/oxo-x']])('allows %s', (command) => {
    expect(findBlockedPattern(command), command).toBeUndefined();
  });
});
