// ISO 8601 UTC text of a millisecond time, as Date#toISOString writes it, without a Date per call:
// the recorder stamps four or five events a job, nearly all within a second of the one before, so the
// text up to the seconds is kept and only the milliseconds are written afresh.
let second = Number.NaN;
let prefix = '';

/** `2026-12-01T21:15:30.042Z` for an integer millisecond time (what Date.now() returns). */
export function isoTime(ms: number): string {
  if (!Number.isInteger(ms)) return new Date(ms).toISOString();
  const s = Math.floor(ms / 1000);
  if (s !== second) {
    second = s;
    prefix = new Date(s * 1000).toISOString().slice(0, 20);
  }
  const frac = ms - s * 1000;
  return `${prefix}${frac < 10 ? '00' : frac < 100 ? '0' : ''}${frac}Z`;
}
