// E011: shell commands that destroy a machine rather than process data. The patterns are compiled
// once; each names its category so the message says why. They aim at the catastrophic forms only:
// `rm -rf tmp/` or `dd if=/dev/zero of=test.img` are ordinary commands and must stay silent.
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { Workflow } from '../model.js';
import type { Locator } from './locate.js';
import { commandTexts } from './rule-texts.js';

/**
 * A target that is the whole file system or a home directory, however it is spelt once values are
 * written in: `/`, `//*`, `/./`, `''/*` (an empty value before `/*`), `'/'`, `"/"`, `~`, `~/*`,
 * `$HOME`, `${HOME}/`, `"$HOME"`, and literal home directories (`/root`, `/home/NAME`,
 * `/Users/NAME`), ending at a word boundary. `rm -rf /home/me/project/tmp` is not one.
 */
const HOME_DIR = String.raw`(?:/root|/home/[^/\s;&|)'"]+|/Users/[^/\s;&|)'"]+)`;
const ROOT_TARGET =
  String.raw`(?:''|"")*` +
  String.raw`(?:/[/.]*\*?|'/+'(?:/*\*?)|"/+"(?:/*\*?)|~/*\*?|\$HOME/*\*?|\$\{HOME\}/*\*?|"\$HOME"/*\*?|"\$\{HOME\}"/*\*?|` +
  HOME_DIR +
  String.raw`/*\*?|'` +
  HOME_DIR +
  String.raw`/*'/*\*?)(?=$|[\s;&|)])`;

interface BlockedPattern {
  category: string;
  /**
   * Text the pattern cannot match without (a string, or a small regex that is quick to compile): the
   * full regex runs, and V8 compiles it, only when one is present.
   */
  needles: readonly (string | RegExp)[];
  pattern: RegExp;
  why: string;
}

export const BLOCKED_PATTERNS: readonly BlockedPattern[] = [
  {
    category: 'recursive deletion',
    needles: [/\brm\s/],
    pattern: new RegExp(String.raw`\brm\s+(?:-{1,2}[\w-]+\s+)*?(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)\s+(?:-{1,2}[\w-]+\s+)*(?:--\s+)?` + ROOT_TARGET),
    why: 'deletes the whole file system or home directory',
  },
  {
    category: 'file-system destruction',
    needles: ['mkfs', 'mkswap', 'wipefs'],
    pattern: /(?:^|[\s;&|(`])(?:sudo\s+)?(?:mkfs(?:\.\w+)?|mkswap|wipefs)\b/,
    why: 'formats a disk',
  },
  {
    category: 'block-device write',
    needles: ['of=/dev/'],
    pattern: /\bdd\b[^;&|\n]*\bof=\/dev\/(?:sd|hd|vd|xvd|nvme|mmcblk|disk|md\d|dm-|mapper\/)/,
    why: 'overwrites a disk with dd',
  },
  {
    category: 'block-device write',
    needles: ['/dev/'],
    pattern: />\s*\/dev\/(?:sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d)/,
    why: 'redirects output onto a disk device',
  },
  {
    category: 'permission escalation',
    needles: ['chmod'],
    pattern: new RegExp(String.raw`\bchmod\s+(?:-{1,2}[\w-]+\s+)*[0-7]?777\s+(?:-{1,2}[\w-]+\s+)*` + ROOT_TARGET),
    why: 'makes every file on the system world-writable',
  },
  {
    category: 'remote execution',
    needles: ['curl', 'wget'],
    pattern: /\b(?:curl|wget)\b[^|;&\n]*\|\s*(?:sudo\s+)?(?:env\s+)?(?:ba|da|z|k|fi)?sh\b/,
    why: 'runs a script downloaded from the network',
  },
  {
    category: 'remote execution',
    needles: ['curl', 'wget'],
    pattern: /\b(?:ba|da|z|k)?sh\s+(?:-c\s+)?(?:["']?\$\(|<\()\s*(?:curl|wget)\b/,
    why: 'runs a script downloaded from the network',
  },
  {
    category: 'fork bomb',
    needles: ['()'],
    pattern: /([A-Za-z_:][\w:]*)\s*\(\)\s*\{\s*\1\s*\|\s*\1\s*&\s*\}/,
    why: 'starts processes until the machine stops responding',
  },
];

/** The first blocked pattern in a command, if any. */
export function findBlockedPattern(command: string): { category: string; why: string; match: string } | undefined {
  for (const p of BLOCKED_PATTERNS) {
    if (!p.needles.some((n) => (typeof n === 'string' ? command.includes(n) : n.test(command)))) continue;
    const m = p.pattern.exec(command);
    if (m) return { category: p.category, why: p.why, match: m[0].trim() };
  }
  return undefined;
}

export function checkBlockedShell(w: Workflow, loc: Locator, out: Diagnostic[]): void {
  for (const rule of w.rules) {
    for (const t of commandTexts(rule)) {
      const found = findBlockedPattern(t.text);
      if (!found) continue;
      const what = t.field === 'shell' ? 'shell' : t.field === 'map' ? 'transform.map' : 'transform.combine.shell';
      out.push(
        diagnostic('E011', `${what} of rule "${rule.name}" is blocked (${found.category}: \`${found.match}\` ${found.why})`, {
          ...loc.inValue(t.path, found.match, rule.name),
          hint: 'oxo-flow refuses to run this command; remove it, or target a path inside the project',
        }),
      );
    }
  }
}
