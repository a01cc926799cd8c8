// Shapes shared by skill discovery, activation and their consumers (MCP bridge, prompt assembly, CLI).
import type { Diagnostic } from '../../diagnostics/diagnostic.js';
import type { OAuthSettings, TokenEndpointAuthMethod } from '../mcp/oauth.js';

export type { TokenEndpointAuthMethod };

export type SkillScope = 'project' | 'user' | 'builtin';
export type SkillFormat = 'toml' | 'md';
export type SkillType = 'knowledge' | 'tool';
export type SkillStatus = 'ok' | 'invalid' | 'oversize' | 'shadowed' | 'ambiguous' | 'excluded';
export const SKILL_STATUSES: readonly SkillStatus[] = ['ok', 'invalid', 'oversize', 'shadowed', 'ambiguous', 'excluded'];

/** The `[mcp]` table of a tool skill, with its server URL from `requires`. Header values are raw (`${ENV}` unexpanded). */
export interface McpSettings {
  /** http(s) URL (an `mcp://` URL already mapped to `http://`). */
  url: string;
  headers: Record<string, string>;
  connectTimeoutMs?: number;
  callTimeoutMs?: number;
  /** false: ignore the server's readOnlyHint and ask for every call. Default true. */
  trustAnnotations: boolean;
  /** Only these tools of the server are offered (names, `*` matches any text); all when absent. */
  allowTools?: string[];
  /** These tools are never offered, even when allowed. */
  denyTools?: string[];
  /** OAuth settings ([mcp] oauth): a configured client, the secret's variable, scope, grant. Here `privateKeyFile` is as written (relative to the skill's directory); the MCP client gets it resolved. */
  oauth?: OAuthSettings;
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
  /** The directory name (SKILL.md) or file stem (TOML) when it differs from the declared name. */
  folderName?: string;
  /** The .skill.toml file or the SKILL.md file. */
  path: string;
  /** Directory that holds the skill's files (for SKILL.md: its own directory; for TOML: the skills directory). */
  dir: string;
  description?: string;
  version?: string;
  author?: string;
  domains: string[];
  /**
   * Normalised prompt text (LF, invisible characters stripped). A SKILL.md body is read only when the
   * skill is activated or shown (loadSkillBody); a TOML skill's prompt_additions come with its file.
   */
  prompt?: string;
  mcp?: McpSettings;
  /** Size of the skill file in bytes (as read; for oversize files, as reported by the file system). */
  sizeBytes?: number;
  /** TOML `requires` entries as written (a tool skill's server URL is also in `mcp.url`). */
  requires?: string[];
  /** TOML `entry`: recorded, never executed. */
  entry?: string;
  /** SKILL.md extras, recorded and shown, never honoured: Agent Skills fields and our built-in ones. */
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  allowedTools?: string;
  primaryTool?: string;
}

/** The fields a format parser extracts from one file, before scope and status are decided. */
export type ParsedSkill = Omit<Skill, 'name' | 'scope' | 'format' | 'status' | 'path' | 'dir' | 'sizeBytes' | 'folderName'> & {
  /** The `name` field as written, when it is a string (the skill loads under it when it is a valid name). */
  declaredName?: string;
};

/** Result of one discovery pass: every skill found (whatever its status) and problems not tied to one skill. */
export interface Discovery {
  skills: Skill[];
  diagnostics: Diagnostic[];
  /** The directories scanned, per scope, in precedence order (absent ones included, with exists=false). */
  roots: { scope: SkillScope; dir: string; exists: boolean }[];
}
