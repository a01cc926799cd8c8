// What the example data generators share: a seeded random generator, so the data are the same bytes
// on every machine, random DNA, reverse complements and sequencing errors. Each example's
// make-data.mjs decides what to simulate; this only draws the numbers and bases.

/** mulberry32: a small seeded generator returning numbers in [0, 1). */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const BASES = 'ACGT';
const COMPLEMENT = { A: 'T', C: 'G', G: 'C', T: 'A' };

export const revcomp = (s) => [...s].reverse().map((b) => COMPLEMENT[b]).join('');

/** `length` random bases drawn with `rand` (which the caller may go on drawing from). */
export function randomSequence(length, rand) {
  let s = '';
  for (let i = 0; i < length; i++) s += BASES[Math.floor(rand() * 4)];
  return s;
}

/** A base other than `b`, drawn with `rand`. */
export const otherBase = (b, rand) => BASES[(BASES.indexOf(b) + 1 + Math.floor(rand() * 3)) % 4];

/** Sequencing errors: each base is replaced by another one with probability `rate`, drawn with `rand`. */
export const withErrors = (rand, rate) => (s) => [...s].map((b) => (rand() < rate ? otherBase(b, rand) : b)).join('');
