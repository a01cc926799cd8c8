// POSIX single quoting, for text a person reads as a command (dry-run's readable command, a log
// header) and for the few places where oxo-flow itself writes a command line around fixed argv words
// (the Slurm batch script). Job scripts never carry values: see script.ts.

/** Characters sh gives no meaning to inside a word: a word of only these needs no quoting. */
export const SHELL_SAFE = /^[A-Za-z0-9_/.:=@%+,-]+$/;

/** POSIX single-quote a word unless every character is shell-safe. */
export function shellQuote(word: string): string {
  if (word === '') return "''";
  if (SHELL_SAFE.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}
