// Small, pure edits and readings of a template's text. They work on the text (not a parsed table)
// so that the comments a template is written with survive into the user's copy.
import { nearestName as nearestKnownName } from '../../diagnostics/nearest-name.js';

/** Set `[workflow] name` to `name`, keeping everything else byte for byte. */
export function renameWorkflow(text: string, name: string): string {
  const lines = text.split('\n');
  let inWorkflow = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const header = /^\s*\[{1,2}\s*([A-Za-z0-9_.-]+)\s*\]{1,2}\s*(#.*)?$/.exec(line);
    if (header) {
      inWorkflow = header[1] === 'workflow' && !line.trim().startsWith('[[');
      continue;
    }
    if (inWorkflow && /^\s*name\s*=/.test(line)) {
      lines[i] = `name = ${JSON.stringify(name)}`;
      return lines.join('\n');
    }
  }
  return text;
}

/** Number of `[[rules]]` entries. */
export function countRules(text: string): number {
  return text.split('\n').filter((line) => /^\s*\[\[\s*rules\s*\]\]\s*(#.*)?$/.test(line)).length;
}

/** The conda environment files a template names (`conda = "envs/x.yaml"`), each once, in order. */
export function condaEnvFiles(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(/\bconda\s*=\s*"(envs\/[A-Za-z0-9._-]+\.ya?ml)"/g)) found.add(match[1]!);
  return [...found];
}

/** Expand shell-style brace lists: `a/{x,y}_R{1,2}` → a/x_R1, a/x_R2, a/y_R1, a/y_R2. No nesting. */
export function expandBraces(pattern: string): string[] {
  const match = /\{([^{}]*,[^{}]*)\}/.exec(pattern);
  if (!match) return [pattern];
  const before = pattern.slice(0, match.index);
  const after = pattern.slice(match.index + match[0].length);
  return match[1]!.split(',').flatMap((choice) => expandBraces(`${before}${choice}${after}`));
}

/** The closest of `candidates` to `name`, when it is close enough to be a likely typo or a prefix. */
/** Like the shared nearestName, but a unique prefix also counts (`rna` → `rnaseq-quant`). */
export function nearestName(name: string, candidates: readonly string[]): string | undefined {
  const wanted = name.toLowerCase();
  const prefixed = candidates.filter((c) => c.startsWith(wanted) || c.replace(/-/g, '').startsWith(wanted.replace(/[-_]/g, '')));
  if (wanted.length >= 2 && prefixed.length === 1) return prefixed[0];
  return nearestKnownName(name, candidates);
}
