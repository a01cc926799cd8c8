// The built-in library as discovery sees it, prepared at build time (dist/builtin-skills.json): one
// small JSON file instead of opening and parsing every skills-builtin/*/SKILL.md, so `ai status` does
// not grow with the library. Used only when it matches the files exactly (the same
// skill directories, each SKILL.md of the recorded size); otherwise discovery reads the files as for
// any other scope. A skill's body is read from its file when first asked for (activation, show).
import { readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../package-root.js';
import { parseMdSkill } from './parse-md-skill.js';
import type { Skill } from './types.js';

const MANIFEST_FILE = 'builtin-skills.json';

/** One built-in skill as recorded at build time (every one of them parsed with no findings). */
export interface ManifestEntry {
  name: string;
  /** Bytes of its SKILL.md. */
  size: number;
  sha256: string;
  description: string;
  version?: string;
  license?: string;
  compatibility?: string;
  author?: string;
  metadata?: Record<string, string>;
  domains: string[];
  primaryTool?: string;
  allowedTools?: string;
}

export interface BuiltinManifest {
  format: 1;
  skills: ManifestEntry[];
}

/** The prebuilt built-in scope: its real directory and the skills to list for it. */
export interface PrebuiltScope {
  dirReal: string;
  skills(): Skill[];
}

const shas = new WeakMap<Skill, string>();

/** sha256 of a built-in skill's file as recorded at build time, for skills listed from the manifest. */
export function manifestSha256(skill: Skill): string | undefined {
  return shas.get(skill);
}

/**
 * The manifest of the package's own skills-builtin/, when it exists and matches the files; else
 * undefined (discovery then reads the files). Never throws.
 */
export function prebuiltBuiltins(builtinDir: string, manifestFile = path.join(packageRoot(), 'dist', MANIFEST_FILE)): PrebuiltScope | undefined {
  try {
    const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as BuiltinManifest;
    if (manifest.format !== 1 || !Array.isArray(manifest.skills)) return undefined;
    // Native, like discovery's roots (the two are compared): one system call.
    const dirReal = realpathSync.native(builtinDir);
    const names = readdirSync(dirReal).filter((n) => !n.startsWith('.')).sort();
    if (names.length !== manifest.skills.length) return undefined;
    for (let i = 0; i < names.length; i++) {
      const entry = manifest.skills[i]!;
      if (entry.name !== names[i] || statSync(child(child(dirReal, entry.name), 'SKILL.md')).size !== entry.size) return undefined;
    }
    return { dirReal, skills: () => manifest.skills.map((e) => manifestSkill(e, dirReal)) };
  } catch {
    return undefined;
  }
}

/**
 * `dir/name` for a real (normalised) directory and an entry name read from it: path.join without its
 * normalising pass, which is most of its cost. The names are those readdirSync listed (checked above).
 */
function child(dir: string, name: string): string {
  return dir.endsWith(path.sep) ? dir + name : dir + path.sep + name;
}

/** The fields a manifest entry may carry over to its skill (one list, not one per skill). */
const OPTIONAL_FIELDS = ['version', 'license', 'compatibility', 'author', 'metadata', 'primaryTool', 'allowedTools'] as const;

function manifestSkill(entry: ManifestEntry, dirReal: string): Skill {
  const dir = child(dirReal, entry.name);
  const skill: Skill = {
    name: entry.name,
    scope: 'builtin',
    format: 'md',
    type: 'knowledge',
    status: 'ok',
    findings: [],
    path: child(dir, 'SKILL.md'),
    dir,
    description: entry.description,
    domains: entry.domains,
    sizeBytes: entry.size,
  };
  for (let i = 0; i < OPTIONAL_FIELDS.length; i++) {
    const key = OPTIONAL_FIELDS[i]!;
    if (entry[key] !== undefined) (skill as unknown as Record<string, unknown>)[key] = entry[key];
  }
  shas.set(skill, entry.sha256);
  // The body, read and normalised on first use; configurable so discovery can still drop it.
  let prompt: string | undefined;
  let read = false;
  Object.defineProperty(skill, 'prompt', {
    configurable: true,
    enumerable: true,
    get() {
      if (!read) {
        read = true;
        // The package's own file, matched to the manifest by size when discovery ran.
        try {
          const text = readFileSync(skill.path, 'utf8').replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
          prompt = parseMdSkill(text, skill.path, entry.name).prompt;
        } catch {
          prompt = undefined;
        }
      }
      return prompt;
    },
    set(value: string | undefined) {
      read = true;
      prompt = value;
    },
  });
  return skill;
}
