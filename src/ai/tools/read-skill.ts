// Built-in read-only tools over the active skills: read_skill (the prompt text) and
// read_skill_file (a file in the skill's own directory). Path-safe: relative paths only, no `..`,
// no hidden components, real path inside the skill directory, regular files, 512 KiB cap.
// The built-in library is readable whatever is active (`builtin/NAME`, or a bare name no active
// skill has): its skills are ours and read-only, and the prompt lists only their names.
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { loadSkillBody } from '../skills/discover.js';
import { normalisePromptText } from '../skills/prompt-text.js';
import type { Skill } from '../skills/types.js';
import type { ToolEntry, ToolOutput } from './types.js';

export const MAX_SKILL_FILE_BYTES = 512 * 1024;

const fail = (text: string): ToolOutput => ({ isError: true, text, code: 'TOOL003' });

function findSkill(skills: readonly Skill[], builtins: readonly Skill[], name: unknown): Skill | undefined {
  if (typeof name !== 'string') return undefined;
  const active = skills.find((s) => s.name === name || `${s.scope}/${s.name}` === name);
  if (active !== undefined) return active;
  const bare = name.startsWith('builtin/') ? name.slice('builtin/'.length) : name;
  const builtin = builtins.find((s) => s.scope === 'builtin' && s.name === bare && (s.status === 'ok' || s.status === 'shadowed'));
  // The body is read on first use; a skill whose file went away is reported as not found.
  return builtin !== undefined && loadSkillBody(builtin) ? builtin : undefined;
}

/** Why a requested path is refused, or undefined when its form is acceptable. */
export function unsafePathReason(p: string): string | undefined {
  if (p === '' || p.includes('\0')) return 'the path is empty or contains a NUL byte';
  if (path.isAbsolute(p) || /^[A-Za-z]:/.test(p) || p.startsWith('\\')) return 'only paths relative to the skill directory are allowed';
  const parts = p.split(/[\\/]+/).filter((x) => x !== '' && x !== '.');
  if (parts.length === 0) return 'the path names the skill directory itself';
  if (parts.includes('..')) return '".." is not allowed';
  if (parts.some((x) => x.startsWith('.'))) return 'hidden files and directories are not readable';
  return undefined;
}

/** Read one file of a SKILL.md skill. Returns the text, or an error output saying why not. */
export function readSkillFile(skill: Skill, relative: string): ToolOutput {
  if (skill.format !== 'md') return fail(`skill ${skill.name} is a single .skill.toml file with no directory of its own; use read_skill`);
  const reason = unsafePathReason(relative);
  if (reason !== undefined) return fail(`cannot read "${relative}": ${reason}`);
  let root: string;
  let real: string;
  try {
    root = realpathSync(skill.dir);
    real = realpathSync(path.join(root, relative));
  } catch {
    return fail(`cannot read "${relative}": no such file in skill ${skill.name}`);
  }
  const rel = path.relative(root, real);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return fail(`cannot read "${relative}": it resolves outside the skill directory`);
  let fd: number;
  try {
    fd = openSync(real, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    return fail(`cannot read "${relative}": ${(err as NodeJS.ErrnoException).code ?? 'error'}`);
  }
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return fail(`cannot read "${relative}": not a regular file`);
    if (st.size > MAX_SKILL_FILE_BYTES) return fail(`cannot read "${relative}": ${st.size} bytes is over the ${MAX_SKILL_FILE_BYTES}-byte cap`);
    const buf = Buffer.alloc(MAX_SKILL_FILE_BYTES + 1);
    let total = 0;
    for (let n = 1; n > 0 && total < buf.length; total += n) n = readSync(fd, buf, total, buf.length - total, null);
    if (total > MAX_SKILL_FILE_BYTES) return fail(`cannot read "${relative}": over the ${MAX_SKILL_FILE_BYTES}-byte cap`);
    // Untrusted like the skill's prompt, and read by the same model: the same normalisation.
    return { isError: false, text: normalisePromptText(buf.subarray(0, total).toString('utf8')) };
  } finally {
    closeSync(fd);
  }
}

/** What both built-in skill readers share: read-only, built in, callable without a prompt. */
const BUILTIN_READER = {
  origin: { kind: 'builtin' },
  annotations: { readOnlyHint: true },
  gate: { builtinReadOnly: true, trustAnnotations: true },
  callable: true,
} as const;

/**
 * `active`: the skills activated for this command; `builtins`: the built-in library as discovered
 * (readable by `builtin/NAME` whatever is active).
 */
export function readSkillTools(active: readonly Skill[], builtins: readonly Skill[] = []): ToolEntry[] {
  const names = active.map((s) => s.name);
  /** Run `read` on the skill that `args.name` names, or say which skills can be read. */
  const withSkill =
    (read: (skill: Skill, args: Record<string, unknown>) => ToolOutput | Promise<ToolOutput>) =>
    async (args: Record<string, unknown>): Promise<ToolOutput> => {
      const skill = findSkill(active, builtins, args.name);
      if (skill === undefined) {
        const also = builtins.length > 0 ? '; built-in skills are read as builtin/NAME (find them with lookup_skill)' : '';
        return fail(`no active skill named ${JSON.stringify(args.name)}; active skills: ${names.length > 0 ? names.join(', ') : 'none'}${also}`);
      }
      return read(skill, args);
    };
  return [
    {
      name: 'read_skill',
      description: 'Read the full text of a skill: an active one by name, or any built-in one as builtin/NAME (e.g. builtin/star-align).',
      inputSchema: { type: 'object', properties: { name: { type: 'string', description: 'skill name, or builtin/NAME' } }, required: ['name'], additionalProperties: false },
      ...BUILTIN_READER,
      invoke: withSkill((skill) => ({ isError: false, text: skill.prompt ?? '' })),
    },
    {
      name: 'read_skill_file',
      description: "Read a file inside a SKILL.md skill's directory (an active skill, or builtin/NAME; relative path, e.g. references/guide.md).",
      inputSchema: {
        type: 'object',
        properties: { name: { type: 'string', description: 'skill name' }, path: { type: 'string', description: 'path relative to the skill directory' } },
        required: ['name', 'path'],
        additionalProperties: false,
      },
      ...BUILTIN_READER,
      invoke: withSkill((skill, args) => (typeof args.path === 'string' ? readSkillFile(skill, args.path) : fail('"path" must be a string'))),
    },
  ];
}
