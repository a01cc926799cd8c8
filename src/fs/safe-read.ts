// Reading untrusted files (skills, ai.toml, provider config) without hanging, over-reading or
// following links out of a root. Only regular files are read (a FIFO would block, /dev/zero never
// ends); at most cap+1 bytes are read so an oversize file is detected without loading it, and a caller
// that needs only the start of a file (a skill's front matter) reads just that.
import { isUtf8 } from 'node:buffer';
import { closeSync, constants, fstatSync, openSync, readSync, realpathSync } from 'node:fs';
import path from 'node:path';

let scratch = Buffer.allocUnsafe(64 * 1024 + 1);

/** How a file is read, beyond its root and size cap. */
export interface ReadOptions {
  /** The file sits in a directory reached through a symbolic link: its real path must be checked. */
  parentIsLink?: boolean;
  /**
   * Read only the start of the file: chunk by chunk, stopping as soon as `done` says the bytes so far
   * are enough, and never past `max` bytes. The file's size (fstat) is still checked against the cap.
   */
  head?: { chunk: number; max: number; done: (bytes: Buffer) => boolean };
  /**
   * Return a view of the shared read buffer instead of a copy: valid only until the next read. For a
   * caller that decodes the bytes at once and keeps none of them (discovery's front-matter reads), it
   * saves an allocation and a copy per file.
   */
  borrow?: boolean;
  /**
   * Also return the file's identity (fileIdentity of the open descriptor's stat): device, inode,
   * size, modification and change times, for the discovery cache's key.
   */
  identity?: boolean;
}

export type SafeRead =
  /** `size` is the file's size; `complete` says whether `bytes` holds all of it (false after a head read that stopped early). */
  | { ok: true; bytes: Buffer; size: number; complete: boolean; identity?: FileIdentity }
  | { ok: false; reason: 'missing' | 'not-regular' | 'escapes-root' | 'oversize' | 'io'; detail: string; size?: number; identity?: FileIdentity };

/**
 * Who a file is and which version of it, from its stat: device, inode and size, modification and
 * change times (as Node reports them: milliseconds with a fraction, about a quarter of a microsecond
 * apart at today's dates); `changedMs` is the newer of the two times.
 */
export interface FileIdentity {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  changedMs: number;
}

export function fileIdentity(st: { dev: number; ino: number; size: number; mtimeMs: number; ctimeMs: number }): FileIdentity {
  return { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs, ctimeMs: st.ctimeMs, changedMs: Math.max(st.mtimeMs, st.ctimeMs) };
}

/** Every read, for tests that check what was read (set by the test; undefined in use). */
export const readObserver: { onRead?: (file: string, bytesRead: number, complete: boolean) => void } = {};


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
export function readFileSafely(file: string, rootReal: string, cap: number, options: ReadOptions = {}): SafeRead {
  const opened = options.parentIsLink ? openConfined(file, rootReal) : openNoFollow(file, file, rootReal);
  if (typeof opened !== 'number') return opened;
  const fd = opened;
  try {
    const st = fstatSync(fd);
    const size = st.size;
    const identity = options.identity ? fileIdentity(st) : undefined;
    if (!st.isFile()) return { ok: false, reason: 'not-regular', detail: describeKind(st) };
    if (size > cap) return { ok: false, reason: 'oversize', detail: `${size} bytes`, size, ...(identity ? { identity } : {}) };
    // One scratch buffer for every read (discovery reads hundreds of files); the result is a copy.
    if (scratch.length < cap + 1) scratch = Buffer.allocUnsafe(cap + 1);
    const head = options.head;
    const limit = head ? Math.min(head.max, cap + 1) : cap + 1;
    let total = 0;
    let eof = false;
    while (total < limit) {
      const want = head ? Math.min(limit, total + head.chunk) - total : limit - total;
      const n = readSync(fd, scratch, total, want, null);
      total += n;
      // A short read that reaches the size fstat gave is the end of the file: no read just to see 0.
      if (n === 0 || (total >= size && total < limit && size > 0)) {
        eof = true;
        break;
      }
      if (head?.done(scratch.subarray(0, total))) break;
    }
    if (total > cap) return { ok: false, reason: 'oversize', detail: `more than ${cap} bytes`, size: total };
    const complete = eof || total >= size;
    readObserver.onRead?.(file, total, complete);
    const view = scratch.subarray(0, total);
    const out: SafeRead = { ok: true, bytes: options.borrow ? view : Buffer.from(view), size: complete ? total : size, complete };
    if (identity) out.identity = identity;
    return out;
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

function describeKind(st: { isFIFO(): boolean; isSocket(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isDirectory(): boolean }): string {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device file';
  if (st.isDirectory()) return 'a directory';
  return 'not a regular file';
}

export type DecodedText = { ok: true; text: string } | { ok: false; offset: number };

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Strict UTF-8 decoding; on failure, the byte offset of the first bad sequence. BOM removed, CRLF/CR → LF. */
export function decodeText(bytes: Buffer): DecodedText {
  // isUtf8 + toString is a native check and a native decode: cheaper per call than a fatal
  // TextDecoder, which matters when discovery decodes hundreds of front matters.
  if (!isUtf8(bytes)) return { ok: false, offset: firstInvalidUtf8(bytes) };
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { ok: true, text: text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text };
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
