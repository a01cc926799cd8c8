// A short, cheap hash of a text for naming a cache file: FNV-1a over UTF-16 code units, 2 × 32 bits.
// A file name, not a security boundary: every cache that uses it stores the text it was named from
// and compares it, so a collision only misses. No hashing library has to load.
export function nameHash(text: string): string {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return a.toString(16).padStart(8, '0') + b.toString(16).padStart(8, '0');
}
