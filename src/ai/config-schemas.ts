// The four hand-written files of the AI layer, as zod schemas: `.oxo-flow/ai.toml`,
// `$OXO_FLOW_HOME/ai_config.json`, `<name>.skill.toml` and the front matter of `SKILL.md`. They say
// which keys exist and what type each holds; what a schema cannot say (name rules, lengths, URLs,
// `~`, the schema_version refusal, secrets) stays in the readers, after the shape check.
// Like the workflow's schema (src/workflow/schema.ts), this module is loaded only by
// scripts/gen-codes-doc.mjs and the tests: zod costs tens of milliseconds to load, so the readers check
// files against the compiled shapes in config-shapes.generated.ts (see config-check.ts) instead.
import type * as Zod from 'zod';
import { AI_COMMANDS } from '../workflow/model.js';
import { requireZod, shapeOf } from '../workflow/schema-runtime.js';

function defineAiConfigSchemas(z: typeof Zod) {
  const strings = z.array(z.string());

  const commandTable = z.strictObject({ skills: strings.optional().describe('skills activated for this command only') });
  const aiTable = z.strictObject({
    enabled: z.boolean().optional().describe('turn on --ai for validate, lint and dry-run'),
    skills: strings.optional().describe('skills activated for every AI command'),
    skill_paths: strings.optional().describe('extra skills directories (relative to the project, `~`, globs)'),
    provider: z.string().optional(),
    model: z.string().optional(),
    base_url: z.string().optional(),
    max_rounds: z.int().positive().optional().describe('most answers (drafts) the model may give per command; tool-call rounds do not count'),
    ...Object.fromEntries(AI_COMMANDS.map((command) => [command, commandTable.optional()])),
  });
  /** `.oxo-flow/ai.toml`: everything lives in one [ai] table. */
  const aiToml = z.strictObject({ ai: aiTable.optional() });

  const nonNegative = z.number().nonnegative();
  /** `$OXO_FLOW_HOME/ai_config.json` (written by `ai setup`, or by hand). */
  const aiConfigJson = z.strictObject({
    schema_version: z.literal(1),
    provider: z.string().optional(),
    model: z.string().optional(),
    base_url: z.string().optional(),
    api_key: z.string().optional(),
    key_env: z.string().optional().describe('environment variable that holds the key'),
    models: z
      .array(
        z.strictObject({
          id: z.string(),
          provider: z.string().optional(),
          aliases: strings.optional(),
          context_window: z.number().optional(),
        }),
      )
      .optional(),
    fallback: z
      .strictObject({ provider: z.string(), model: z.string().optional(), base_url: z.string().optional(), key_env: z.string().optional() })
      .optional(),
    timeouts: z.strictObject({ connect_ms: nonNegative.optional(), first_byte_ms: nonNegative.optional(), idle_ms: nonNegative.optional(), total_ms: nonNegative.optional() }).optional(),
    retries: z.union([nonNegative, z.strictObject({ max: nonNegative.optional(), base_ms: nonNegative.optional() })]).optional(),
  });

  /** `<name>.skill.toml`; its [mcp] table becomes the server's settings (src/ai/mcp/server-spec.ts). */
  const skillToml = z.strictObject({
    name: z.string(),
    version: z.string(),
    description: z.string(),
    skill_type: z.enum(['knowledge', 'tool']),
    author: z.string().optional(),
    domains: strings.optional(),
    prompt_additions: strings.optional(),
    requires: strings.optional(),
    entry: z.string().optional(),
    mcp: z
      .strictObject({
        headers: z.record(z.string(), z.string()).optional(),
        connect_timeout_ms: z.int().positive().optional(),
        call_timeout_ms: z.int().positive().optional(),
        trust_annotations: z.boolean().optional(),
        allow_tools: strings.optional(),
        deny_tools: strings.optional(),
        oauth: z
          .strictObject({
            client_id: z.string().optional(),
            client_secret_env: z.string().optional(),
            private_key_file: z.string().optional(),
            private_key_env: z.string().optional(),
            token_endpoint_auth_method: z.enum(['client_secret_basic', 'client_secret_post', 'client_secret_jwt', 'private_key_jwt', 'none']).optional(),
            scope: z.string().optional(),
            grant: z.enum(['authorization_code', 'client_credentials', 'jwt_bearer', 'enterprise']).optional(),
            assertion_env: z.string().optional(),
            assertion_file: z.string().optional(),
            idp_token_endpoint: z.string().optional(),
            idp_client_id: z.string().optional(),
            idp_client_secret_env: z.string().optional(),
            id_token_env: z.string().optional(),
            id_token_file: z.string().optional(),
            dpop: z.boolean().optional(),
          })
          .optional(),
      })
      .optional(),
  });

  // SKILL.md front matter is read with YAML's failsafe schema: every scalar is a string, and an empty
  // value (null) counts as absent (the reader drops it before the check).
  const stringOrList = z.union([z.string(), strings]);
  /** Agent Skills' six fields, plus this project's version, domains, author (domain and primary_tool for older skills). */
  const skillMd = z.strictObject({
    name: z.string(),
    description: z.string(),
    license: z.string().optional(),
    compatibility: z.string().optional(),
    metadata: z.object({ domain: stringOrList.optional() }).catchall(z.string()).optional(),
    'allowed-tools': z.string().optional(),
    version: z.string().optional(),
    domains: stringOrList.optional(),
    domain: stringOrList.optional(),
    author: z.string().optional(),
    primary_tool: z.string().optional(),
  });

  return { aiToml, aiConfigJson, skillToml, skillMd };
}

export type AiConfigSchemas = ReturnType<typeof defineAiConfigSchemas>;
export type AiConfigFormat = keyof AiConfigSchemas;

let cached: AiConfigSchemas | undefined;

export function aiConfigSchemas(): AiConfigSchemas {
  return (cached ??= defineAiConfigSchemas(requireZod()));
}

/** The compact shapes the readers check against (written to config-shapes.generated.ts). */
export function aiConfigShapes(): Record<AiConfigFormat, unknown> {
  const schemas = aiConfigSchemas();
  return { aiToml: shapeOf(schemas.aiToml), aiConfigJson: shapeOf(schemas.aiConfigJson), skillToml: shapeOf(schemas.skillToml), skillMd: shapeOf(schemas.skillMd) };
}
