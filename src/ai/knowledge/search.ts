// Ranked skill search over the compiled index: BM25 per field (name, tool, domain, description,
// body), each with its own length normalisation and document frequency, weighted and summed. The query is split into clauses,
// one per word or known abbreviation; a clause scores by its best alternative (the words as typed,
// or their synonym expansion at a discount), and a skill that answers more of the clauses ranks higher.
import { nearestName } from '../../diagnostics/nearest-name.js';
import { MAX_SYNONYM_WORDS, SYNONYMS } from './synonyms.js';
import { analyse, termOf, words, type Word } from './tokenize.js';
import { FIELDS, unpackFrequencies, type Field, type KnowledgeIndex } from './types.js';

/** How much a match in each field counts (FIELDS order): a word in the name or tool says most. */
const WEIGHTS = [4, 4, 2.5, 2, 1];
/** Length normalisation per field: short fields barely, long text fully. */
const B = [0.3, 0.3, 0.3, 0.75, 0.75];
const K1 = 1.2;
/** A synonym expansion counts a little less than the words as typed. */
const SYNONYM_WEIGHT = 0.8;
/** Weight of a skill's use in public pipelines (its graph node's pipeline count, log-scaled). */
const PRIOR = 0.1;

interface Alternative {
  words: Word[];
  weight: number;
}
export interface Clause {
  /** The query words this clause stands for. */
  text: string;
  alternatives: Alternative[];
  /** The synonym expansion used, if any. */
  expansion?: string;
}

export interface SkillHit {
  name: string;
  domain: string;
  tool: string;
  toolType: string;
  description: string;
  score: number;
  /** Per field, the query words found there (the "why it matched"). */
  matched: Partial<Record<Field, string[]>>;
}

/** The query as clauses: known abbreviations (longest first) with their expansion, else one word each. */
export function queryClauses(query: string): Clause[] {
  const ws = words(query);
  const clauses: Clause[] = [];
  for (let i = 0; i < ws.length; ) {
    let matched = false;
    for (let n = Math.min(MAX_SYNONYM_WORDS, ws.length - i); n >= 1 && !matched; n--) {
      const key = ws.slice(i, i + n).join(' ');
      const expansion = SYNONYMS[key];
      if (expansion === undefined) continue;
      const own = analyse(key);
      const alternatives: Alternative[] = [{ words: analyse(expansion), weight: SYNONYM_WEIGHT }];
      if (own.length > 0) alternatives.unshift({ words: own, weight: 1 });
      clauses.push({ text: key, alternatives, expansion });
      i += n;
      matched = true;
    }
    if (matched) continue;
    const surface = ws[i]!;
    const term = termOf(surface);
    if (term !== undefined) clauses.push({ text: surface, alternatives: [{ words: [{ surface, term }], weight: 1 }] });
    i += 1;
  }
  return clauses;
}

export interface SkillSearch {
  clauses: Clause[];
  hits: SkillHit[];
  /**
   * True when the best hit is a poor answer: nothing matched, it answers less than half of the
   * query, or it leaves out a specific word of it (one that few skills or none contain).
   */
  weak: boolean;
  /** The query words the best hit does not answer. */
  unanswered: string[];
}

/** A clause term is specific when fewer than this share of the skills contain it. */
const SPECIFIC_SHARE = 0.15;

/** The skills that match, best first (ties by name), at most `limit`. */
export function searchSkills(index: KnowledgeIndex, query: string, limit = 5): SkillSearch {
  const clauses = queryClauses(query);
  const n = index.skills.length;
  const idf = (df: number) => Math.log(1 + (n - df + 0.5) / (df + 0.5));

  /**
   * Per skill: the score of one term, and the fields it occurs in. Each field is scored as BM25 on
   * its own, with its own document frequency (a word rare among skill names is strong evidence when
   * it is in the name, however common it is in bodies), then weighted and summed.
   */
  const termScores = (term: string): Map<number, { score: number; fields: Field[] }> => {
    const out = new Map<number, { score: number; fields: Field[] }>();
    const list = index.postings(term);
    if (list === undefined) return out;
    const rows: { doc: number; freq: number[] }[] = [];
    const df = FIELDS.map(() => 0);
    for (let i = 0; i < list.length; i += 2) {
      const freq = unpackFrequencies(list[i + 1]!);
      freq.forEach((f, k) => {
        if (f > 0) df[k]! += 1;
      });
      rows.push({ doc: list[i]!, freq });
    }
    const fieldIdf = df.map(idf);
    for (const { doc, freq } of rows) {
      const lengths = index.skills[doc]!.lengths;
      let score = 0;
      const fields: Field[] = [];
      freq.forEach((f, k) => {
        if (f === 0) return;
        fields.push(FIELDS[k]!);
        const norm = 1 - B[k]! + (B[k]! * lengths[k]!) / (index.averageLengths[k]! || 1);
        score += WEIGHTS[k]! * fieldIdf[k]! * ((f * (K1 + 1)) / (f + K1 * norm));
      });
      out.set(doc, { score, fields });
    }
    return out;
  };

  const cache = new Map<string, ReturnType<typeof termScores>>();
  const scoresOf = (term: string) => cache.get(term) ?? (cache.set(term, termScores(term)), cache.get(term)!);

  const total = new Map<number, { score: number; clauses: number; answered: Set<string>; matched: Partial<Record<Field, string[]>> }>();
  for (const clause of clauses) {
    // For each skill, the best alternative of this clause.
    const best = new Map<number, { score: number; part: number; hits: { surface: string; fields: Field[] }[] }>();
    for (const alt of clause.alternatives) {
      const perDoc = new Map<number, { score: number; hits: { surface: string; fields: Field[] }[] }>();
      for (const word of alt.words) {
        for (const [doc, s] of scoresOf(word.term)) {
          const cur = perDoc.get(doc) ?? { score: 0, hits: [] };
          cur.score += alt.weight * s.score;
          cur.hits.push({ surface: word.surface, fields: s.fields });
          perDoc.set(doc, cur);
        }
      }
      for (const [doc, v] of perDoc) {
        // An expansion counts in proportion to how much of it matched: "structural variant" is not
        // answered by a skill that only says "variant".
        const part = new Set(v.hits.map((h) => h.surface)).size / new Set(alt.words.map((w) => w.surface)).size;
        const score = v.score * part * part;
        if (score > (best.get(doc)?.score ?? 0)) best.set(doc, { score, part, hits: v.hits });
      }
    }
    for (const [doc, v] of best) {
      const cur = total.get(doc) ?? { score: 0, clauses: 0, answered: new Set<string>(), matched: {} };
      cur.score += v.score;
      if (v.part >= 0.5) cur.answered.add(clause.text);
      // A clause partly answered (one word of a two-word expansion) counts as little towards
      // coverage as towards the score.
      cur.clauses += v.part * v.part;
      for (const hit of v.hits) for (const f of hit.fields) if (!(cur.matched[f] ??= []).includes(hit.surface)) cur.matched[f]!.push(hit.surface);
      total.set(doc, cur);
    }
  }

  const ranked = [...total].map(([doc, t]) => {
    const s = index.skills[doc]!;
    // Coordination: a skill that answers every part of the query beats one that answers a part very well.
    const coverage = clauses.length > 0 ? t.clauses / clauses.length : 0;
    // Among near-equals, the tool more public pipelines run comes first (a small, bounded nudge).
    const prior = 1 + PRIOR * Math.log1p(s.pipelines);
    const hit: SkillHit = { name: s.name, domain: s.domain, tool: s.tool, toolType: s.toolType, description: s.description, score: round(t.score * coverage * coverage * prior), matched: t.matched };
    return { hit, answered: t.answered };
  });
  ranked.sort((a, b) => b.hit.score - a.hit.score || (a.hit.name < b.hit.name ? -1 : a.hit.name > b.hit.name ? 1 : 0));
  const best = ranked[0];
  const unanswered = best === undefined ? clauses.map((c) => c.text) : clauses.filter((c) => !best.answered.has(c.text)).map((c) => c.text);
  const share = (c: Clause) => Math.max(...c.alternatives.flatMap((a) => a.words.map((w) => (index.postings(w.term)?.length ?? 0) / 2 / Math.max(1, n))), 0);
  const specificLeftOut = clauses.some((c) => unanswered.includes(c.text) && share(c) < SPECIFIC_SHARE);
  const weak = best === undefined || unanswered.length * 2 > clauses.length || specificLeftOut;
  return { clauses, hits: ranked.slice(0, Math.max(0, limit)).map((r) => r.hit), weak, unanswered };
}

/**
 * Likely typos in a query: each word that no skill contains, with the nearest word of the library's
 * skill names, tools and domains ("mutec2" → "mutect2"), when one is close enough.
 */
export function spellingSuggestions(index: KnowledgeIndex, query: string): { word: string; suggestion: string }[] {
  // Only a word of four letters or more that no skill's text contains can be a typo; the vocabulary
  // of names, tools and domains is gathered only when the query has one (usually it has none).
  const unknown = analyse(query).filter((w) => w.surface.length >= 4 && index.postings(w.term) === undefined);
  if (unknown.length === 0) return [];
  const vocabulary = new Set<string>();
  for (const s of index.skills) for (const part of `${s.name} ${s.tool} ${s.domain}`.toLowerCase().split(/[^\p{L}\p{N}]+/u)) if (part.length >= 3) vocabulary.add(part);
  const out: { word: string; suggestion: string }[] = [];
  for (const w of unknown) {
    if (vocabulary.has(w.surface)) continue;
    const suggestion = nearestName(w.surface, vocabulary);
    if (suggestion !== undefined) out.push({ word: w.surface, suggestion });
  }
  return out;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

/** "name: star; tool: star; body: align" — the fields a hit matched in, strongest first. */
export function whyMatched(hit: SkillHit): string {
  return FIELDS.filter((f) => hit.matched[f] !== undefined)
    .map((f) => `${f}: ${hit.matched[f]!.join(', ')}`)
    .join('; ');
}
