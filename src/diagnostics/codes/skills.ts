import type { CodeInfo } from '../code-info.js';

const doc = 'docs/skills.md';

/**
 * Skill discovery and validation (SK001-SK029), activation (SK030-SK039), the project's
 * .oxo-flow/ai.toml (SK040-SK049), provider resolution for `ai status` (PV001-PV009) and the fields
 * of ai_config.json (CFG001-CFG019).
 */
export const skillCodes = {
  // --- one skill file ---
  SK001: { severity: 'error', title: 'skill name is not valid', hint: 'use lower-case letters and digits in words joined by single hyphens, at most 64 characters (e.g. qc-expert)', doc },
  SK002: { severity: 'warning', title: 'skill name does not match its file or directory name (it loads under its declared name)', hint: 'rename the file (<name>.skill.toml) or directory (<name>/SKILL.md) to match `name`; `ai skills validate --strict` fails until they match', doc },
  SK003: { severity: 'error', title: 'required skill field is missing', doc },
  SK004: { severity: 'error', title: 'skill field has the wrong type', doc },
  SK005: { severity: 'error', title: 'skill field length is out of range', doc },
  SK006: { severity: 'warning', title: 'unknown skill field (ignored)', doc },
  SK007: { severity: 'error', title: 'skill TOML cannot be parsed', doc },
  SK008: { severity: 'error', title: 'SKILL.md front matter is missing or not closed', hint: 'start the file with a line `---`, the YAML fields, then a closing line `---`', doc },
  SK009: { severity: 'error', title: 'SKILL.md front matter is not valid YAML', hint: 'quote values that contain a colon, e.g. description: "Use when: ..."', doc },
  SK010: { severity: 'error', title: 'front matter language refused (only YAML is read; nothing is executed)', hint: 'open the front matter with a plain `---` line', doc },
  SK011: { severity: 'error', title: 'skill file is larger than 64 KiB', hint: 'shorten the skill; move reference material into files beside SKILL.md', doc },
  SK012: { severity: 'error', title: 'skill path is not a regular file', hint: 'only regular files are read: not FIFOs, sockets or devices', doc },
  SK013: { severity: 'error', title: 'symbolic link leaves the skills directory', hint: 'copy the skill into the skills directory instead of linking outside it', doc },
  SK014: { severity: 'error', title: 'skill file is not valid UTF-8', hint: 'save the file as UTF-8', doc },
  SK015: { severity: 'error', title: 'skill file cannot be read', doc },
  SK016: { severity: 'error', title: 'tool skill has no usable MCP server URL', hint: 'set requires = ["mcp://host:port/path"] (or an http(s):// URL)', doc },
  SK017: { severity: 'error', title: 'skill_type must be "knowledge" or "tool"', doc },
  SK018: { severity: 'info', title: 'skill is shadowed by a skill of the same name in a higher-precedence scope', hint: 'activate it with its qualified alias (user/NAME or builtin/NAME)', doc },
  SK019: { severity: 'warning', title: 'two skills with the same name in one scope (ambiguous)', hint: 'keep one: rename or remove the other file', doc },
  SK020: { severity: 'warning', title: 'skill excluded: its front matter is longer than discovery reads (16 KiB)', hint: 'keep the front matter short (name, description, a few fields); put the rest in the body', doc },
  SK021: { severity: 'warning', title: 'skills directory has too many entries; the rest were not scanned', hint: 'split the collection into folders of at most 10,000 entries and list them in `skill_paths` (a glob such as "vendor/skills/*" covers them all); a skill listed by name is still found', doc },
  SK022: { severity: 'warning', title: 'knowledge skill has no prompt text', hint: 'add prompt_additions (TOML) or a markdown body (SKILL.md)', doc },
  SK023: { severity: 'error', title: 'skills directory cannot be read', doc },
  SK024: { severity: 'warning', title: 'skill file name has the wrong case and is not read', hint: 'name the file exactly SKILL.md', doc },
  // --- activation ---
  SK030: { severity: 'warning', title: 'listed skill was not found', hint: 'run `oxo-flow ai skills list` to see the discovered skills', doc },
  SK031: { severity: 'warning', title: 'listed skill cannot be activated (invalid, oversize or excluded)', hint: 'run `oxo-flow ai skills validate` to see why', doc },
  SK032: { severity: 'warning', title: 'listed skill name is ambiguous', doc },
  SK033: { severity: 'warning', title: 'skill name given in an unknown form', hint: 'use NAME or a qualified alias project/NAME, user/NAME, builtin/NAME', doc },
  // --- .oxo-flow/ai.toml ---
  SK040: { severity: 'error', title: 'ai.toml cannot be parsed', exit: 'usage', doc },
  SK041: { severity: 'error', title: 'ai.toml value has the wrong type', doc },
  SK042: { severity: 'warning', title: 'unknown key in ai.toml (ignored)', doc },
  SK043: { severity: 'error', title: 'an API key does not belong in a project or workflow file', hint: 'remove it; set OXO_FLOW_AI_API_KEY (or the provider key variable, e.g. OPENAI_API_KEY) instead', doc },
  SK044: { severity: 'error', title: 'ai.toml cannot be read', exit: 'usage', doc },
  SK045: { severity: 'warning', title: "the workflow has errors, so its [ai] table was not read", hint: 'run `oxo-flow validate` on it', doc },
  // --- scaffolding ---
  SK050: { severity: 'error', title: 'skill path given to validate does not exist or is not a skill', doc },
  // --- large collections ---
  SK060: { severity: 'warning', title: 'a `skill_paths` entry matches no directory', hint: 'fix the path in .oxo-flow/ai.toml (relative to the project, `~` is your home folder, `*` matches one folder level)', doc },
  SK061: { severity: 'info', title: 'SKILL.md files sit one folder deeper than skills are read', hint: 'skills are read as <skills dir>/<name>/SKILL.md; for a collection grouped by category add a glob to .oxo-flow/ai.toml, e.g. skill_paths = ["vendor/skills/*"]', doc },
  SK062: { severity: 'warning', title: 'some discovered skills cannot be used (invalid, oversize, excluded or ambiguous)', hint: 'run `oxo-flow ai skills validate` to see every finding', doc },
  SK063: { severity: 'info', title: 'the skill discovery cache was ignored (unreadable, not valid JSON, another format version, or over its size bound)', hint: 'nothing to do: skills were read from their files and the cache is rewritten; delete $OXO_FLOW_HOME/cache/skills/ to start afresh', doc },
  SK064: { severity: 'info', title: 'the skill discovery cache could not be written', hint: 'nothing to do for this run: skills were read from their files; make $OXO_FLOW_HOME/cache/ writable to make AI commands faster, or set OXO_FLOW_SKILL_CACHE=0', doc },
  // --- provider resolution (status only, never the network) ---
  PV001: { severity: 'error', title: 'unknown AI provider', hint: 'use one of the kinds that `oxo-flow ai setup --help` lists', doc },
  PV002: { severity: 'error', title: 'ai_config.json cannot be read or parsed', hint: 'fix the JSON (its fields are in docs/skills.md), or remove the file', doc },
  PV003: { severity: 'error', title: 'ai_config.json has a schema_version this oxo-flow does not know', hint: 'set "schema_version": 1, or upgrade oxo-flow', doc },
  PV004: { severity: 'warning', title: 'AI provider has no API key', doc },
  PV005: { severity: 'warning', title: 'scripted provider has no script file', hint: 'set OXO_FLOW_AI_SCRIPT to a JSON script file', doc },
  // --- ai_config.json fields (the file is still read; the field is not) ---
  CFG001: { severity: 'warning', title: 'ai_config.json value has the wrong type (ignored)', hint: 'fix the value (the fields are listed in docs/ai.md), or remove it', doc },
  CFG002: { severity: 'warning', title: 'unknown key in ai_config.json (ignored)', doc },
  // --- provider resolution, continued ---
  PV006: { severity: 'warning', title: 'the fallback provider cannot be used (the primary still is)', hint: 'fix "fallback" in ai_config.json: a known provider kind, and its key variable exported', doc },
  PV007: { severity: 'error', title: 'an openai-compatible provider needs a base URL', hint: 'run `oxo-flow ai setup --provider openai-compatible --base-url http://HOST:PORT/v1`, or set OXO_FLOW_AI_BASE_URL', doc },
  PV008: { severity: 'warning', title: 'the AI provider has no model', hint: 'pass --model, set OXO_FLOW_AI_MODEL, or run `oxo-flow ai setup`', doc },
} as const satisfies Record<string, CodeInfo>;
