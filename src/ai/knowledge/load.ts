// Reads the compiled index (dist/knowledge-index.json) once per process. Only the lookup commands
// and the lookup tools call this: nothing on the path of validate, lint, dry-run or `ai status`.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../../package-root.js';
import { openKnowledge, type IndexFile, type KnowledgeIndex } from './types.js';

export const INDEX_FILE = 'knowledge-index.json';

export class KnowledgeIndexError extends Error {
  constructor(
    readonly code: 'KN001' | 'KN002',
    message: string,
  ) {
    super(message);
  }
}

let cached: KnowledgeIndex | undefined;

/** dist/knowledge-index.json of this package. */
export function indexPath(): string {
  return path.join(packageRoot(), 'dist', INDEX_FILE);
}

/** The index, read and checked once. Throws KnowledgeIndexError (KN001 missing or unreadable, KN002 other format). */
export function loadKnowledgeIndex(file = indexPath()): KnowledgeIndex {
  if (cached !== undefined && file === indexPath()) return cached;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    const why = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (err as Error).message;
    throw new KnowledgeIndexError('KN001', `cannot read the built-in knowledge index ${file}: ${why}`);
  }
  const format = (parsed as { format?: unknown } | null)?.format;
  if (format !== 2) throw new KnowledgeIndexError('KN002', `the knowledge index ${file} has format ${JSON.stringify(format)}; this oxo-flow reads format 2`);
  const index = openKnowledge(parsed as IndexFile);
  if (file === indexPath()) cached = index;
  return index;
}
