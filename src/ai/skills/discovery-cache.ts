// The discovery cache: what discovery learnt from each skill file (its front matter parsed and
// checked: fields, status, findings), kept in $OXO_FLOW_HOME/cache/skills/, one file per skills
// directory, so a later AI command pays one `lstat` for a file that has not changed instead of
// opening, reading and parsing it. Skills are read-only to oxo-flow, so an entry whose key matches
// the file is what reading the file would give again.
//
// The key is the file's identity from its stat: device, inode, size, modification and change times
// (fileIdentity in src/fs/safe-read.ts; the times as Node's Stats give them, in milliseconds with a
// fraction, a quarter of a microsecond apart today: finer than any file system's clock tick). The
// change time is in it because no tool sets it back: a file rewritten and given its old modification
// time (`cp -p`, `touch -r`, an archive tool) still misses. Time stamps are as coarse as their file system (2 s on FAT), so a file whose
// newer time stamp is less than SETTLE_MS old is not stored: a rewrite of the same size within one
// tick of the read could otherwise keep the old entry's key (git's "racy" entries, avoided the same
// way). The key of a stored entry comes from fstat on the very descriptor the file was read through.
//
// A cache file is cheap to read: one JSON parse of compact rows, one per skill file, in the order
// discovery lists the files (so a run finds each row by walking them in step with its listing): the
// file's name under the root, its identity as five numbers (compared with the `lstat` fields as they
// are, no key string built), and the skill as discovery made it, which becomes the run's skill.
//
// What is never stored: a SKILL.md body or TOML prompt text (read when a skill is activated, shown
// or validated), tool skills (their [mcp] headers and URL may hold credentials), anything refused
// before reading (links out of the root, FIFOs), and an unreadable file. The cache is data only:
// JSON, type-checked per entry; a file that does not parse, is of another format or another build
// of oxo-flow, or is over its size bound is ignored (SK063), and one that cannot be written is
// skipped (SK064): neither is ever an error, and neither changes any result.
import { chmodSync, closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, realpathSync, rmSync, statSync, type Stats } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import { writeFileAtomic, type WriteOutcome } from '../../fs/write-file-atomic.js';
import { nameHash } from '../../fs/name-hash.js';
import { type FileIdentity, isInside } from '../../fs/safe-read.js';
import { packageVersion } from '../../package-root.js';
import { SKILL_STATUSES, type Skill, type SkillFormat } from './types.js';

/** The `format` field of a cache file, and the version this build reads and writes. */
export const CACHE_FORMAT = 'oxo-flow-skill-cache';
export const CACHE_VERSION = 2;
/** A cache file over this size is neither read nor written. */
export const CACHE_FILE_MAX = 16 * 1024 * 1024;
/** Cache files kept in the directory (one per skills directory); the least recently written go first. */
export const CACHE_FILES_MAX = 64;
/** A file changed less than this long ago (ms) is read but not stored (coarse time stamps, see above). */
export const SETTLE_MS = 3000;

/** A skill as discovery left it for one file, without what comes from where it was found (scope, path, dir) or its prompt. */
export type CachedSkill = Omit<Skill, 'scope' | 'path' | 'dir' | 'prompt' | 'mcp'>;

/** The identity of a file as stored: device, inode, size, modification and change time (ms, as Node's Stats give them). */
const IDENTITY_LENGTH = 5;

/** One stored file: its path under the root, its identity, the skill discovery made of it. */
type Row = [file: string, dev: number, ino: number, size: number, mtimeMs: number, ctimeMs: number, skill: CachedSkill];
const ROW_LENGTH = 2 + IDENTITY_LENGTH;

interface CacheFile {
  format: typeof CACHE_FORMAT;
  version: typeof CACHE_VERSION;
  /** The build that wrote it: a new build may judge files differently, so its entries are not used. */
  build: string;
  /** The skills directory (real path) the entries belong to. */
  root: string;
  rows: Row[];
}

/** The cache of one run: opened per skills directory, written once discovery is done. */
export class DiscoveryCache {
  /** SK063/SK064 notes: shown only with --verbose or --json. */
  readonly notes: Diagnostic[] = [];
  private readonly roots = new Map<string, RootCache>();

  constructor(
    readonly dir: string,
    private readonly build: string = buildIdentity(),
    private readonly now: () => number = Date.now,
  ) {}

  /** The entries of one skills directory (by its real path). */
  root(rootReal: string): RootCache {
    let rc = this.roots.get(rootReal);
    if (rc === undefined) {
      const rows = this.read(rootReal);
      rc = new RootCache(rootReal, rows ?? [], this.now(), rows !== undefined);
      this.roots.set(rootReal, rc);
    }
    return rc;
  }

  /** Write each directory's entries whose set changed (new, changed or removed files). Never throws. */
  flush(): void {
    let created = false;
    let madeDir = false;
    for (const rc of this.roots.values()) {
      if (!rc.changed()) continue;
      const file = this.fileFor(rc.rootReal);
      const text = rc.serialise(this.build);
      const bytes = Buffer.byteLength(text);
      if (bytes > CACHE_FILE_MAX) {
        this.note('SK064', `the skill cache for ${rc.rootReal} would be ${bytes} bytes, over the ${CACHE_FILE_MAX / 1024 / 1024} MiB bound; it is not written`);
        try {
          rmSync(file, { force: true });
        } catch {
          // an old file stays: it is checked entry by entry, and ignored once over the bound
        }
        continue;
      }
      // Mode 0600 in a 0700 directory, through a temporary file and a rename (a reader never sees half a file).
      let outcome: WriteOutcome;
      try {
        if (!madeDir) {
          mkdirSync(this.dir, { recursive: true, mode: 0o700 });
          chmodSync(this.dir, 0o700);
          madeDir = true;
        }
        outcome = writeFileAtomic(file, text, { overwrite: true, mode: 0o600 });
      } catch (err) {
        outcome = { ok: false, reason: 'error', message: (err as Error).message };
      }
      if (!outcome.ok) {
        this.note('SK064', `cannot write the skill cache ${file}: ${outcome.message}; skills are read from their files`);
        return;
      }
      created ||= !rc.hadFile;
    }
    // Only a new file can take the directory over its bound.
    if (created) this.prune();
  }

  private fileFor(rootReal: string): string {
    return path.join(this.dir, `skills-${nameHash(rootReal)}.json`);
  }

  private note(code: 'SK063' | 'SK064', message: string): void {
    this.notes.push(diagnostic(code, message, { file: this.dir }));
  }

  /** The rows stored for a directory: undefined when there is no file, none when it is unreadable or not ours. */
  private read(rootReal: string): Row[] | undefined {
    const file = this.fileFor(rootReal);
    let text: string;
    try {
      // No file is the usual case of a first run: asked without the cost of an exception.
      if (lstatSync(file, { throwIfNoEntry: false }) === undefined) return undefined;
      text = readBounded(file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
      this.note('SK063', `skill cache ${file} is ignored: ${(err as Error).message}`);
      return [];
    }
    let doc: Partial<CacheFile>;
    try {
      doc = JSON.parse(text) as Partial<CacheFile>;
    } catch (err) {
      this.note('SK063', `skill cache ${file} is ignored: it is not valid JSON (${(err as Error).message})`);
      return [];
    }
    if (doc === null || typeof doc !== 'object' || doc.format !== CACHE_FORMAT || doc.version !== CACHE_VERSION) {
      this.note('SK063', `skill cache ${file} is ignored: it is not a version ${CACHE_VERSION} skill cache`);
      return [];
    }
    // Another build or another directory (a name collision): silently unused, then rewritten.
    if (doc.build !== this.build || doc.root !== rootReal || !Array.isArray(doc.rows)) return [];
    return doc.rows;
  }

  /** Keep at most CACHE_FILES_MAX cache files (the least recently written go), and no leftover temporary file. */
  private prune(): void {
    try {
      const names = readdirSync(this.dir);
      const now = this.now();
      const files: { name: string; mtime: number }[] = [];
      for (const name of names) {
        const full = path.join(this.dir, name);
        const st = lstatSync(full, { throwIfNoEntry: false });
        if (!st?.isFile()) continue;
        if (name.endsWith('.tmp')) {
          if (now - st.mtimeMs > 60 * 60 * 1000) rmSync(full, { force: true });
        } else if (name.endsWith('.json')) files.push({ name, mtime: st.mtimeMs });
      }
      files.sort((a, b) => b.mtime - a.mtime);
      for (const f of files.slice(CACHE_FILES_MAX)) rmSync(path.join(this.dir, f.name), { force: true });
    } catch {
      // pruning is best effort: the next write tries again
    }
  }
}

/** One skills directory's rows: those read from its cache file, and this run's. */
export class RootCache {
  /**
   * This run's rows, in listing order: for a hit, the row read (its skill becomes the run's Skill);
   * for a file read now, a new row with its Skill. Discovery writes the cache before it changes any
   * skill further (relations, bodies), so both still say exactly what their file says; serialise
   * leaves out where each was found.
   */
  private readonly kept: unknown[][] = [];
  private dirty = false;
  private stored = 0;
  /** The row expected next: rows are in listing order, so a run that lists the same files walks them in step. */
  private next = 0;
  /** Rows by path, made only when a lookup is out of step (files added or removed). */
  private byFile: Map<string, unknown[]> | undefined;
  /** No row was read from the file (then looking one up would cost a stat for nothing). */
  readonly empty: boolean;
  private readonly prefix: string;

  constructor(
    readonly rootReal: string,
    private readonly rows: readonly unknown[],
    private readonly startedMs: number,
    /** A cache file existed for the directory (readable or not). */
    readonly hadFile: boolean,
  ) {
    this.empty = rows.length === 0;
    this.prefix = rootReal.endsWith(path.sep) ? rootReal : rootReal + path.sep;
  }

  /**
   * The skill stored for `file` when the file is still the one it was read from. `parentIsLink`: the
   * skill's directory is a link, so the file's real path is checked to be inside the root (as reading
   * it would). The stored object itself is returned, for the caller to complete into its Skill (each
   * run parses the file anew, so nothing is shared between runs).
   */
  lookup(file: string, format: SkillFormat, parentIsLink: boolean): CachedSkill | undefined {
    if (!file.startsWith(this.prefix)) return undefined;
    const row = this.row(file.slice(this.prefix.length));
    if (row === undefined || row.length !== ROW_LENGTH) return undefined;
    const st = currentStat(file, this.rootReal, parentIsLink);
    if (st === undefined || row[1] !== st.dev || row[2] !== st.ino || row[3] !== st.size || row[4] !== st.mtimeMs || row[5] !== st.ctimeMs) return undefined;
    const skill = row[ROW_LENGTH - 1];
    if (!validSkill(skill, format)) return undefined;
    this.kept.push(row);
    return skill;
  }

  private row(rel: string): unknown[] | undefined {
    const at = this.rows[this.next];
    if (Array.isArray(at) && at[0] === rel) {
      this.next += 1;
      return at;
    }
    if (this.byFile === undefined) {
      this.byFile = new Map();
      for (const r of this.rows) if (Array.isArray(r) && typeof r[0] === 'string') this.byFile.set(r[0], r);
    }
    return this.byFile.get(rel);
  }

  /**
   * Remember what discovery made of `file` (read through a descriptor whose stat gave `identity`).
   * Not stored: a tool skill, and a file changed too recently to be told apart from a rewrite in the
   * same tick.
   */
  store(file: string, skill: Skill, identity: FileIdentity): void {
    if (skill.type === 'tool' || skill.mcp !== undefined) return;
    if (this.startedMs - identity.changedMs < SETTLE_MS) return;
    if (!file.startsWith(this.prefix)) return;
    this.kept.push([file.slice(this.prefix.length), identity.dev, identity.ino, identity.size, identity.mtimeMs, identity.ctimeMs, skill]);
    this.stored += 1;
  }

  /** True when the file would differ: a row stored this run, or one in the file that this run did not use. */
  changed(): boolean {
    if (this.dirty || this.stored > 0) return true;
    if (this.kept.length !== this.rows.length) return (this.dirty = true);
    return false;
  }

  serialise(build: string): string {
    const rows: Row[] = [];
    for (const row of this.kept) rows.push([...(row.slice(0, ROW_LENGTH - 1) as [string, number, number, number, number, number]), cachedFields(row[ROW_LENGTH - 1] as CachedSkill) as unknown as CachedSkill]);
    const doc: CacheFile = { format: CACHE_FORMAT, version: CACHE_VERSION, build, root: this.rootReal, rows };
    return JSON.stringify(doc);
  }
}

/**
 * The fields of a skill that a row stores (JSON leaves out those that are undefined), named one by
 * one: the type makes a field added to Skill a build error here until it is listed.
 */
function cachedFields(s: CachedSkill): Record<keyof CachedSkill, unknown> {
  return {
    name: s.name,
    format: s.format,
    type: s.type,
    status: s.status,
    findings: s.findings,
    folderName: s.folderName,
    description: s.description,
    version: s.version,
    author: s.author,
    domains: s.domains,
    sizeBytes: s.sizeBytes,
    requires: s.requires,
    entry: s.entry,
    license: s.license,
    compatibility: s.compatibility,
    metadata: s.metadata,
    allowedTools: s.allowedTools,
    primaryTool: s.primaryTool,
  };
}

const NO_THROW = { throwIfNoEntry: false } as const;

/** The file's stat as it is now (`lstat`); undefined when it is not a regular file inside the root. */
function currentStat(file: string, rootReal: string, parentIsLink: boolean): Stats | undefined {
  try {
    let st = lstatSync(file, NO_THROW);
    if (st === undefined) return undefined;
    if (parentIsLink || st.isSymbolicLink()) {
      const real = realpathSync.native(file);
      if (!isInside(rootReal, real)) return undefined;
      st = lstatSync(real, NO_THROW);
      if (st === undefined) return undefined;
    }
    return st.isFile() ? st : undefined;
  } catch {
    return undefined;
  }
}

type FieldType = 'string' | 'number' | 'strings' | 'status' | 'format' | 'type' | 'metadata' | 'findings';
/**
 * The type of each field an entry has (and no other: an entry is data read from disk). Every field of
 * CachedSkill must be listed (the type says so), so a field added to Skill is stored, or the build fails.
 */
const FIELD_TYPES: Record<keyof CachedSkill, FieldType> = {
  name: 'string',
  format: 'format',
  type: 'type',
  status: 'status',
  findings: 'findings',
  folderName: 'string',
  description: 'string',
  version: 'string',
  author: 'string',
  domains: 'strings',
  sizeBytes: 'number',
  requires: 'strings',
  entry: 'string',
  license: 'string',
  compatibility: 'string',
  metadata: 'metadata',
  allowedTools: 'string',
  primaryTool: 'string',
};


/** An entry is used only when it has the shape discovery gives, for a file of this format. */
function validSkill(v: unknown, format: SkillFormat): v is CachedSkill {
  if (!isRecord(v) || v.format !== format || typeof v.name !== 'string' || !Array.isArray(v.findings) || !Array.isArray(v.domains)) return false;
  for (const key in v) {
    const value = v[key];
    switch (Object.hasOwn(FIELD_TYPES, key) ? (FIELD_TYPES as Record<string, FieldType>)[key] : undefined) {
      case 'string':
        if (typeof value !== 'string') return false;
        break;
      case 'number':
        if (typeof value !== 'number') return false;
        break;
      case 'strings':
        if (!stringList(value)) return false;
        break;
      case 'status':
        if (!(SKILL_STATUSES as readonly unknown[]).includes(value)) return false;
        break;
      case 'type':
        if (value !== 'knowledge') return false;
        break;
      case 'metadata':
        if (!isRecord(value) || !Object.values(value).every((x) => typeof x === 'string')) return false;
        break;
      case 'findings':
        for (const f of value as unknown[]) {
          if (!isRecord(f) || typeof f.code !== 'string' || typeof f.severity !== 'string' || typeof f.message !== 'string') return false;
        }
        break;
      case 'format':
        break;
      default:
        return false;
    }
  }
  return true;
}

const stringList = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Read a file of at most CACHE_FILE_MAX bytes (a larger one throws), not following a final link. */
function readBounded(file: string): string {
  const fd = openSync(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error('it is not a regular file');
    if (st.size > CACHE_FILE_MAX) throw new Error(`it is ${st.size} bytes, over the ${CACHE_FILE_MAX / 1024 / 1024} MiB bound`);
    const buf = Buffer.allocUnsafe(st.size);
    let total = 0;
    while (total < st.size) {
      const n = readSync(fd, buf, total, st.size - total, null);
      if (n === 0) break;
      total += n;
    }
    return buf.toString('utf8', 0, total);
  } finally {
    closeSync(fd);
  }
}

/** This build of oxo-flow: its version and the file its code was loaded from (in the package: the bundle). */
function buildIdentity(): string {
  const self = fileURLToPath(import.meta.url);
  try {
    const st = statSync(self);
    return `${packageVersion()}:${st.size}:${st.mtimeMs}`;
  } catch {
    return `${packageVersion()}:unknown`;
  }
}

/** Where a home's skill cache lives. */
export function skillCacheDir(homeDir: string): string {
  return path.join(homeDir, 'cache', 'skills');
}
