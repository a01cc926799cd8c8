// The fields of a SKILL.md front matter (already parsed into a mapping): keys and types are checked
// against the shape compiled from the zod schema (src/ai/config-schemas.ts); the name rule, lengths
// and how domains are gathered are done here. Positions are the line of the top-level key (YAML has
// no key-position index here; the line is enough to find it).
import { diagnostic, type Diagnostic } from '../../diagnostics/diagnostic.js';
import type { ShapePath } from '../../workflow/load/shape-check.js';
import { checkAgainstShape, inFileOrder, pathName } from '../config-check.js';
import { SKILL_MD_SHAPE } from '../config-shapes.generated.js';
import { descriptionFindings, lineOfYamlKey, nameFindings, nameProblem } from './field-checks.js';
import type { ParsedSkill } from './types.js';

const COMPATIBILITY_MAX = 500;

const container = (p: ShapePath) => (p.length === 0 ? 'the front matter' : `\`${pathName(p)}\``);

/**
 * The skill a front matter describes. `block` is the front matter's text (without the `---` lines),
 * `dirName` the skill directory's name; findings are added to `findings` (the skill's own list, in
 * file order), so the caller can add more after.
 */
export function skillFromFrontMatter(raw: Record<string, unknown>, block: string, file: string, dirName: string, findings: Diagnostic[]): ParsedSkill {
  // An empty value (`license:`) is null in YAML: it counts as absent.
  let data = raw;
  for (const key in raw) {
    if (raw[key] === null) {
      data = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== null));
      break;
    }
  }
  const at = (path: ShapePath) => ({ file, line: (path.length === 0 ? 1 : (lineOfYamlKey(block, String(path[0])) ?? 1)) + 1, column: 1 });
  const check = checkAgainstShape(SKILL_MD_SHAPE, data, () => ({ codes: { type: 'SK004', unknown: 'SK006', missing: 'SK003' }, locate: at, table: 'a mapping', container }));
  // The values to use: all of them when the shape check found nothing (nearly always), else those
  // it did not report. Plain reads below, no helper called per field (this runs for every skill listed).
  let ok = data;
  if (check.diagnostics.length > 0) {
    findings.push(...check.diagnostics);
    ok = Object.fromEntries(Object.entries(data).filter(([key]) => check.usable([key])));
  }

  const fields: ParsedSkill = { type: 'knowledge', domains: [], findings };
  const name = ok.name as string | undefined;
  if (name !== undefined) {
    fields.declaredName = name;
    if (name !== dirName || nameProblem(name) !== undefined) findings.push(...nameFindings(name, dirName, () => at(['name']), 'directory name'));
  }
  const description = ok.description as string | undefined;
  if (description !== undefined) {
    fields.description = description;
    const found = descriptionFindings(description, () => at(['description']));
    if (found.length > 0) findings.push(...found);
  }
  const version = ok.version as string | undefined;
  if (version !== undefined) fields.version = version;
  const author = ok.author as string | undefined;
  if (author !== undefined) fields.author = author;
  const license = ok.license as string | undefined;
  if (license !== undefined) fields.license = license;
  const allowedTools = ok['allowed-tools'] as string | undefined;
  if (allowedTools !== undefined) fields.allowedTools = allowedTools;
  const compatibility = ok.compatibility as string | undefined;
  if (compatibility !== undefined) {
    if (compatibility.length === 0 || compatibility.length > COMPATIBILITY_MAX)
      findings.push(diagnostic('SK005', `\`compatibility\` is ${compatibility.length} characters long (1 to ${COMPATIBILITY_MAX})`, at(['compatibility'])));
    else fields.compatibility = compatibility;
  }

  const domains: string[] = [];
  // Agent Skills keeps client-specific fields under `metadata` (a map of strings): ours are `domain`,
  // `primary_tool` and `tool_type`. The top-level `domain`/`primary_tool` of older skills still count.
  let primaryTool = ok.primary_tool as string | undefined;
  if (ok.metadata !== undefined) {
    const meta = ok.metadata as Record<string, string | string[]>;
    // A copy (spread defines each key as its own, `__proto__` included), lists joined in place.
    const metadata: Record<string, string> = { ...(meta as Record<string, string>) };
    for (const k in metadata) {
      const v = metadata[k] as string | string[];
      if (Array.isArray(v)) metadata[k] = v.join(', ');
    }
    fields.metadata = metadata;
    addDomains(domains, meta.domain);
    if (typeof meta.primary_tool === 'string') primaryTool = meta.primary_tool;
  }
  if (primaryTool !== undefined) fields.primaryTool = primaryTool;
  addDomains(domains, ok.domain);
  addDomains(domains, ok.domains);
  fields.domains = domains.length < 2 ? domains : [...new Set(domains)];
  if (findings.length > 1) {
    const sorted = inFileOrder(findings);
    findings.length = 0;
    findings.push(...sorted);
  }
  return fields;
}

/** Adds a `domain` value's words (a string of comma- or space-separated words, or a list) to `domains`. */
function addDomains(domains: string[], v: unknown): void {
  if (typeof v === 'string') {
    const words = v.split(/[,\s]+/);
    for (let i = 0; i < words.length; i++) if (words[i]) domains.push(words[i]!);
  } else if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) domains.push(v[i] as string);
  }
}
