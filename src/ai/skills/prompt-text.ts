// Skill text is untrusted: before it can reach a model it is normalised to LF newlines and stripped
// of invisible and bidirectional-control characters (a reviewer cannot see them; a model can).

// Soft hyphen, combining grapheme joiner, Arabic letter mark, Syriac abbreviation mark, Hangul fillers,
// Khmer inherent vowels, Mongolian variation selectors and vowel separator, zero-width space/joiners,
// LRM/RLM, bidi embeddings and overrides (U+202A-202E), word joiner and invisible operators plus bidi
// isolates (U+2060-206F), variation selectors, BOM/ZWNBSP, halfwidth Hangul filler, interlinear
// annotation and other specials, and the Unicode tag characters.
const INVISIBLE =
  /[\u00AD\u034F\u061C\u070F\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFF8]|\uDB40[\uDC00-\uDC7F]/g;

// C0/C1 controls other than tab and newline.
const CONTROLS = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F]/g;

/** LF newlines, no invisible/bidi/control characters, no trailing spaces at line ends, trimmed blank lines. */
export function normalisePromptText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    .replace(INVISIBLE, '')
    .replace(CONTROLS, '')
    .replace(/[ \t]+$/gm, '')
    .replace(/^\n+/, '')
    .replace(/\n+$/, '');
}

/** Printable ASCII words joined by single spaces: text that singleLine returns unchanged. */
const ALREADY_SINGLE_LINE = /^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/;

/** One-line form for names and descriptions shown in lists: whitespace runs collapse to one space. */
export function singleLine(text: string): string {
  // Most descriptions are one plain line already: skip the seven regular-expression passes (and
  // their strings) that discovery would otherwise make for each of hundreds of skills.
  if (ALREADY_SINGLE_LINE.test(text)) return text;
  return normalisePromptText(text).replace(/\s+/g, ' ').trim();
}
