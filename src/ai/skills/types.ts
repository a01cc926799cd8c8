// Shapes shared by skill discovery, activation and their consumers (MCP bridge, prompt assembly, CLI).
import type { Diagnostic } from '../../diagnostics/diagnostic.js';

export type SkillScope = 'project' | 'user' | 'builtin';
export type SkillFormat = 'toml' | 'md';
export type SkillType = 'knowledge' | 'tool';
export type SkillStatus = 'ok' | 'invalid' | 'oversize' | 'shadowed' | 'ambiguous' | 'excluded';

/** The `[mcp]` table of a tool skill, with its server URL from `requires`. Header values are raw (`${ENV}` unexpanded). */
export interface McpSettings {
  /** http(s) URL (an `mcp://` URL already mapped to `http://`). */
  url: string;
  headers: Record<string, string>;
  connectTimeoutMs?: number;
  callTimeoutMs?: number;
  /** false: ignore the server's readOnlyHint and ask for every call. Default true. */
  trustAnnotations: boolean;
}

export interface Skill {
  name: string;
  scope: SkillScope;
  format: SkillFormat;
  /** Known once the file parsed far enough; SKILL.md skills are knowledge skills. */
  type?: SkillType;
  status: SkillStatus;
  /** Why the status is not ok, and warnings (unknown keys) for ok skills. */
  findings: Diagnostic[];
  /** The .skill.toml file or the SKILL.md file. */
  path: string;
  /** Directory that holds the skill's files (for SKILL.md: its own directory; for TOML: the skills directory). */
  dir: string;
  description?: string;
  version?: string;
  author?: string;
  domains: string[];
  /** Normalised prompt text (LF, invisible characters stripped); absent unless status is ok. */
  prompt?: string;
  mcp?: McpSettings;
  /** sha256 of the file's bytes, for session records. */
  sha256?: string;
}
