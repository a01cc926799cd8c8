// The part of js-yaml 3 (the SKILL.md front matter parser) that src/ai/skills/parse-md-skill.ts uses; js-yaml
// ships no types of its own.
declare module 'js-yaml' {
  const yaml: {
    load(text: string, options: { schema: unknown }): unknown;
    FAILSAFE_SCHEMA: unknown;
  };
  export default yaml;
}
