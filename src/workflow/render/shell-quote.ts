// Paths substituted into a shell command are quoted only when they need it, so the common case
// (plain relative paths) reads exactly as the user wrote it.

const SAFE = /^[A-Za-z0-9_/.:=@%+,-]+$/;

/** POSIX single-quote a word unless every character is shell-safe. */
export function shellQuote(word: string): string {
  if (word === '') return "''";
  if (SAFE.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
