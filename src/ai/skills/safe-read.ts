// Reading untrusted files without hanging, over-reading or following links out of a root.
// Only regular files are read (a FIFO would block, /dev/zero never ends); at most cap+1 bytes are
// read so an oversize file is detected without loading it.
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import path from 'node:path';

export const SKILL_FILE_CAP = 64 * 1024;

let scratch = Buffer.allocUnsafe(SKILL_FILE_CAP + 1);

/** What the caller already knows from the directory listing. */
export interface ReadHint {
  /** The file sits in a directory reached through a symbolic link: its real path must be checked. */
  parentIsLink?: boolean;
}

export type SafeRead =
  | { ok: true; bytes: Buffer; size: number }
  | { ok: false; reason: 'missing' | 'not-regular' | 'escapes-root' | 'oversize' | 'io'; detail: string; size?: number };


/** True when `target` (a real path) is `root` (a real path) or inside it. */
export function isInside(root: string, target: string): boolean {
  const rel = path.relative(root, target);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Read a file under `rootReal` (the scan root's real path). Symbolic links are allowed only when their
 * real path stays inside the root. Only regular files are read: the file is opened without following
 * a final link and without blocking (a FIFO opens at once, with nothing read from it), and fstat on the
 * open descriptor decides, so there is no window between a check and the read. Reads at most
 * `cap + 1` bytes; more means oversize.
 */
export function readFileSafely(file: string, rootReal: string, cap: number = SKILL_FILE_CAP, hint: ReadHint = {}): SafeRead {
  const opened = hint.parentIsLink ? openConfined(file, rootReal) : openNoFollow(file, file, rootReal);
  if (typeof opened !== 'number') return opened;
  const fd = opened;
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) return { ok: false, reason: 'not-regular', detail: describeKind(st) };
    if (st.size > cap) return { ok: false, reason: 'oversize', detail: `${st.size} bytes`, size: st.size };
    // One scratch buffer for every read (discovery reads hundreds of files); the result is a copy.
    if (scratch.length < cap + 1) scratch = Buffer.allocUnsafe(cap + 1);
    const limit = cap + 1;
    let total = 0;
    while (total < limit) {
      const n = readSync(fd, scratch, total, limit - total, null);
      total += n;
      // A short read that reaches the size fstat gave is the end of the file: no read just to see 0.
      if (n === 0 || (total >= st.size && total < limit && st.size > 0)) break;
    }
    if (total > cap) return { ok: false, reason: 'oversize', detail: `more than ${cap} bytes`, size: total };
    return { ok: true, bytes: Buffer.from(scratch.subarray(0, total)), size: total };
  } catch (err) {
    return { ok: false, reason: 'io', detail: (err as Error).message };
  } finally {
    closeSync(fd);
  }
}

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

/** Open `target`; a final symbolic link (ELOOP) is followed only through openConfined. */
function openNoFollow(target: string, file: string, rootReal: string): number | SafeRead {
  try {
    return openSync(target, OPEN_FLAGS);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { ok: false, reason: 'missing', detail: 'no such file' };
    if (code === 'ELOOP' && target === file) return openConfined(file, rootReal);
    return { ok: false, reason: 'io', detail: (err as Error).message };
  }
}

/** Resolve every link in `file`'s path, refuse a real path outside the root, open it. */
function openConfined(file: string, rootReal: string): number | SafeRead {
  let target: string;
  try {
    target = realpathSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { ok: false, reason: 'missing', detail: 'no such file' };
    return { ok: false, reason: 'io', detail: (err as Error).message };
  }
  if (!isInside(rootReal, target)) return { ok: false, reason: 'escapes-root', detail: `links to ${target}, outside ${rootReal}` };
  return openNoFollow(target, file, rootReal);
}

export function describeKind(st: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isDirectory(): boolean }): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device file';
  if (st.isDirectory()) return 'a directory';
  return 'not a regular file';
}

export type DecodedText = { ok: true; text: string } | { ok: false; offset: number };

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Strict UTF-8 decoding; on failure, the byte offset of the first bad sequence. BOM removed, CRLF/CR → LF. */
export function decodeSkillText(bytes: Buffer): DecodedText {
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    return { ok: false, offset: firstInvalidUtf8(bytes) };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { ok: true, text: text.replace(/\r\n?/g, '\n') };
}

function firstInvalidUtf8(bytes: Buffer): number {
  // Binary search on prefixes would be cute; a linear scan over ≤64 KiB is plenty fast.
  for (let i = 0; i < bytes.length; ) {
    const b = bytes[i]!;
    const len = b < 0x80 ? 1 : b >> 5 === 0x6 ? 2 : b >> 4 === 0xe ? 3 : b >> 3 === 0x1e ? 4 : 0;
    if (len === 0 || i + len > bytes.length) return i;
    try {
      decoder.decode(bytes.subarray(i, i + len));
    } catch {
      return i;
    }
    i += len;
  }
  return 0;
}

/** 1-based line and column of a byte offset (for pointing at invalid UTF-8). */
export function lineColumnOfByte(bytes: Buffer, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    if (bytes[i] === 0x0a) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}
