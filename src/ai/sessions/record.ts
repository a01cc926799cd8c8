// Session records: what an AI command did, kept under `<project>/.oxo-flow/ai_sessions/<id>.json`
// so a person can see afterwards what was sent, which tools ran and why. Every record passes
// through redactSecrets before it touches the disk, and the file is readable by its owner only.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { redactSecrets } from '../secrets.js';

export const SESSION_SCHEMA_VERSION = 1;

export interface SessionToolCall {
  round: number;
  tool: string;
  origin: string;
  args: Record<string, unknown>;
  decision: 'auto' | 'approved' | 'refused';
  reason: string;
  is_error: boolean;
  code?: string;
  result_chars: number;
  truncated: boolean;
  duration_ms: number;
}

export interface SessionRound {
  round: number;
  duration_ms: number;
  stop_reason: string;
  usage: { input_tokens: number; output_tokens: number };
  text_chars: number;
  tool_calls: number;
  /** The provider/model that answered this round (differs after a fallback). */
  answered_by: string;
}

export interface SessionRecord {
  schema_version: number;
  id: string;
  command: string;
  started_at: string;
  ended_at?: string;
  duration_ms?: number;
  project_dir: string;
  workflow: string | null;
  provider: { kind: string; model: string; endpoint: string | null };
  skills: { name: string; scope: string; path: string; sha256: string }[];
  tools_offered: { name: string; origin: string; read_only: boolean }[];
  rounds: SessionRound[];
  tool_calls: SessionToolCall[];
  usage: { input_tokens: number; output_tokens: number };
  outcome: { status: string; code?: string; message?: string };
  /** The model's final text (for a review) or the written file (for template --ai). */
  text?: string;
  written?: string;
}

export function sessionsDir(projectDir: string): string {
  return path.join(projectDir, '.oxo-flow', 'ai_sessions');
}

/**
 * `20261130-142810-lint-3f9a`: sortable by time, readable, unique enough. The suffix needs no secrecy,
 * so it comes from Math.random: node:crypto would cost an --ai review about 10 ms to load.
 */
export function newSessionId(command: string, now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('T', '-').slice(0, 15);
  const suffix = Math.floor(Math.random() * 0x10000).toString(16).padStart(4, '0');
  return `${stamp}-${command.replace(/[^a-z0-9]+/gi, '-')}-${suffix}`;
}

/** Write a finished record. Returns the file, or the reason it could not be written. */
export function writeSession(projectDir: string, record: SessionRecord, secrets: readonly string[]): { ok: true; file: string } | { ok: false; message: string } {
  const dir = sessionsDir(projectDir);
  const file = path.join(dir, `${record.id}.json`);
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(file, `${redactSecrets(JSON.stringify(record, null, 2), secrets)}\n`, { mode: 0o600, flag: 'wx' });
    return { ok: true, file };
  } catch (err) {
    return { ok: false, message: (err as Error).message };
  }
}

export interface SessionSummary {
  id: string;
  command: string;
  started_at: string;
  provider: string;
  model: string;
  status: string;
  tool_calls: number;
  input_tokens: number;
  output_tokens: number;
}

/** Every readable record, newest first; unreadable files are named, not fatal. */
export function listSessions(projectDir: string): { sessions: SessionSummary[]; unreadable: string[] } {
  const dir = sessionsDir(projectDir);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return { sessions: [], unreadable: [] };
  }
  const sessions: SessionSummary[] = [];
  const unreadable: string[] = [];
  for (const name of names.sort().reverse()) {
    const r = readSession(projectDir, name.slice(0, -'.json'.length));
    if (r === undefined) {
      unreadable.push(path.join(dir, name));
      continue;
    }
    sessions.push({
      id: r.id,
      command: r.command,
      started_at: r.started_at,
      provider: r.provider?.kind ?? '?',
      model: r.provider?.model ?? '?',
      status: r.outcome?.status ?? '?',
      tool_calls: r.tool_calls?.length ?? 0,
      input_tokens: r.usage?.input_tokens ?? 0,
      output_tokens: r.usage?.output_tokens ?? 0,
    });
  }
  return { sessions, unreadable };
}

export function readSession(projectDir: string, id: string): SessionRecord | undefined {
  if (!/^[A-Za-z0-9_.-]+$/.test(id) || id.startsWith('.')) return undefined;
  try {
    const value = JSON.parse(readFileSync(path.join(sessionsDir(projectDir), `${id}.json`), 'utf8')) as SessionRecord;
    return typeof value === 'object' && value !== null && typeof value.id === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}
