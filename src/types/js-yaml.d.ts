// The part of js-yaml 3 (gray-matter's YAML engine for SKILL.md front matter, with the FAILSAFE schema) that src/ai/skills/parse-md-skill.ts
// and src/workflow/load/config-yaml.ts (--configfile, with the CORE schema: no timestamps, no JavaScript types) use; js-yaml
// ships no types of its own.
declare module 'js-yaml' {
  const yaml: {
    load(text: string, options: { schema: unknown; filename?: string }): unknown;
    FAILSAFE_SCHEMA: unknown;
    CORE_SCHEMA: unknown;
  };
  export default yaml;
}
