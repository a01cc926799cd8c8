// Text → search terms, the same way for the skill library (at build time) and for a query (at run
// time). Whole words only: "star" is the term star and never matches inside "start". Words are
// lower-cased, "X-seq" / "X seq" become one word ("ChIP-seq" → chipseq), common English words are
// dropped, and the rest are stemmed with the Porter stemmer (trimming → trim, variants → variant).
import { stemmer } from 'stemmer';

const STOPWORDS = new Set(
  (
    'a an and are as at be been but by can do does for from has have how i if in into is it its me my no not of on or our ' +
    'per so than that the their them then there these this those to use used uses using via was we what when where which ' +
    'who why will with without you your want need should would could run runs ' +
    // words of a request that say nothing about which skill: "analysis", "data", "tool"
    'analysis analyses analyse analyze data tool tools step steps perform performing get make best good way'
  ).split(' '),
);

/** A word as typed, and the term it is searched by. */
export interface Word {
  surface: string;
  term: string;
}

/** Lower-cased words of a text, with "X-seq" and "X seq" joined into "Xseq", and "de novo" into "denovo". */
export function words(text: string): string[] {
  const raw = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const out: string[] = [];
  for (const w of raw) {
    const prev = out[out.length - 1];
    if (w === 'seq' && prev !== undefined && !STOPWORDS.has(prev)) out[out.length - 1] += 'seq';
    // "de novo" is one idea (and must not read as the abbreviation DE, differential expression)
    else if (w === 'novo' && prev === 'de') out[out.length - 1] = 'denovo';
    else out.push(w);
  }
  return out;
}

/** The search term of one lower-cased word, or undefined for a stop word. Words with digits are kept as they are. */
export function termOf(word: string): string | undefined {
  if (STOPWORDS.has(word)) return undefined;
  return /\d/.test(word) ? word : stemmer(word);
}

/** Words and their terms, stop words dropped. */
export function analyse(text: string): Word[] {
  const out: Word[] = [];
  for (const surface of words(text)) {
    const term = termOf(surface);
    if (term !== undefined) out.push({ surface, term });
  }
  return out;
}

/**
 * The terms a document field is indexed under: every word's term, plus, for a tool name with a
 * version digit (bowtie2, macs3, hisat2), the family name without it, so "bowtie" finds bowtie2.
 */
export function documentTerms(text: string): string[] {
  const out: string[] = [];
  for (const { term } of analyse(text)) {
    out.push(term);
    const family = /^([a-z]{3,})\d+$/.exec(term);
    if (family) out.push(family[1]!);
  }
  return out;
}
