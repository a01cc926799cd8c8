// The shape of a .oxoflow file as zod schemas. Every object is strict, so a misspelt key is caught
// (E020) instead of silently dropped. Cross-field rules (one environment backend, wildcards, config
// references...) live in checks/; this file only says which keys exist and what type each holds.
// `oxo-flow schema` prints the JSON Schema generated from `workflowFileSchema`.
// zod costs about as much to load as Node itself, so this module never imports it at run time: the
// schema is built by `defineWorkflowSchema(z)` on first use (see schema-runtime.ts), and the loader's
// fast path checks files against the compiled shape in schema-shape.generated.ts instead.
import type * as Zod from 'zod';
import { AI_COMMANDS } from './model.js';

export function defineWorkflowSchema(z: typeof Zod) {

  const scalar = z.union([z.string(), z.number(), z.boolean()], { error: 'a string, number or boolean' });

  /** A config or params value: string, number, boolean, or an array of those. */
  const configValueSchema = z.union([scalar, z.array(scalar)], {
    error: 'a string, number, boolean or an array of those',
  });

  const configDeclarationSchema = z
    .strictObject({
      default: configValueSchema.optional().describe('value used when no override is given'),
      required: z.boolean().optional().describe('fail when the key is unset and has no default'),
      help: z.string().optional().describe('one line shown to users'),
      type: z.enum(['string', 'int', 'float', 'bool', 'path']).optional().describe('expected type of the value'),
      choices: z.array(scalar).optional().describe('allowed values'),
      sensitive: z.boolean().optional().describe('mask the value in output'),
    })
    .describe('declarative config entry');

  const configEntrySchema = z.union([configValueSchema, configDeclarationSchema], {
    error: 'a string, number, boolean, array, or a declaration table { default, required, help, type, choices, sensitive }',
  });

  /** threads/memory as written; memory text is parsed (and E004 reported) during normalisation. */
  const integer = () => z.int({ error: 'an integer' });
  const threadsSchema = integer().describe('number of CPU threads');
  const memorySchema = z
    .union([z.string(), integer()], { error: 'a memory amount such as "8G" or an integer number of MB' })
    .describe('memory: integer with optional K/M/G/T (or KB/MB/GB/TB) suffix; a bare number is MB');

  const pathListSchema = z.array(z.string()).describe('list of paths');
  const pathSetSchema = z
    .union([pathListSchema, z.record(z.string(), z.string())], { error: 'an array of paths or a table of named paths' })
    .describe('an array of paths, or a table of named paths ({input.name})');

  const stringOrList = z.union([z.string(), z.array(z.string())], { error: 'a string or an array of strings' });

  const environmentSchema = z
    .strictObject({
      conda: z.string().optional().describe('conda environment file'),
      mamba: z.string().optional().describe('mamba environment file'),
      pixi: z.string().optional().describe('pixi manifest or lock file'),
      docker: z.string().optional().describe('docker image'),
      singularity: z.string().optional().describe('singularity/apptainer image'),
      venv: z.string().optional().describe('python virtual environment directory'),
      modules: stringOrList.optional().describe('environment modules (list, or comma-separated string)'),
    })
    .describe('software environment of a rule: exactly one backend');

  const resourcesSchema = z
    .strictObject({
      threads: threadsSchema.optional(),
      memory: memorySchema.optional(),
      gpu: integer().optional().describe('number of GPUs'),
      disk: z.string().optional().describe('scratch disk, e.g. "50G"'),
      time_limit: z.string().optional().describe('wall-time limit, e.g. "2h"'),
      memory_hard: z.boolean().optional().describe('true: the memory is a hard minimum, never capped to what the machine has'),
    })
    .describe('resources a job needs');

  const valuesSourceFields = {
    values: z.array(z.string()).optional().describe('literal values'),
    values_from: z.string().optional().describe('"config.key" holding the values (array or comma-separated string)'),
  };

  const scatterSchema = z
    .strictObject({
      variable: z.string().describe('wildcard name the values fill, e.g. "chr"'),
      ...valuesSourceFields,
      gather: z.string().optional().describe('rule that receives every clone output'),
    })
    .describe('legacy fan-out: one clone per value');

  const transformSchema = z
    .strictObject({
      split: z.strictObject({ by: z.string().describe('variable name'), ...valuesSourceFields }).describe('how to split'),
      map: z.string().optional().describe('command run once per value'),
      combine: z.strictObject({ shell: z.string().describe('command that merges {chunks} into {output}') }).optional(),
      cleanup: z.union([z.boolean(), z.string()], { error: 'a boolean or a path' }).optional().describe('remove the chunks after combine'),
    })
    .describe('split → map → combine in one rule');

  const expandInputSchema = z
    .strictObject({
      pattern: z.string().describe('path pattern with {variable} wildcards'),
      variables: z.record(z.string(), z.string()).optional().describe('variable → "config.key" or a comma-separated list; the key may name the job\'s wildcards: "config.samples_{group}" is the samples of the job\'s group'),
    })
    .describe('fan-in: the pattern expanded over the variables');

  const ruleSchema = z
    .strictObject({
      name: z.string().describe('rule name: letters, digits, _, :, -'),
      description: z.string().optional(),
      input: pathSetSchema.optional(),
      output: pathSetSchema.optional(),
      shell: z.string().optional().describe('shell command with {placeholders}'),
      script: z.string().optional().describe('script file to run'),
      log: z.string().optional().describe('log file path'),
      temp_output: pathListSchema
        .optional()
        .describe('outputs that are intermediate: removed once every job that reads them is done (also outputs of the rule)'),
      protected_output: pathListSchema
        .optional()
        .describe('outputs made read-only after the job; no rule may write them again (also outputs of the rule)'),
      threads: threadsSchema.optional().describe('threads (wins over resources.threads)'),
      memory: memorySchema.optional().describe('memory (wins over resources.memory)'),
      resources: resourcesSchema.optional(),
      environment: environmentSchema.optional(),
      params: z.record(z.string(), configValueSchema).optional().describe('values for {params.key}; strings may hold placeholders ({sample}, {config.key}, {threads}), and an array of strings is an option list (one argument per element)'),
      depends_on: z.array(z.string()).optional().describe('rules that must finish first'),
      when: z.string().optional().describe('condition; the rule is skipped when it is false'),
      retries: integer().optional().describe('extra attempts after a failure'),
      priority: integer().optional().describe('higher runs first among ready jobs'),
      version_command: z.string().optional().describe("a command that prints the rule's tool version (recorded with each run)"),
      tags: z.array(z.string()).optional(),
      scatter: scatterSchema.optional(),
      transform: transformSchema.optional(),
      expand_inputs: z.array(expandInputSchema).optional(),
    })
    .describe('one step of the pipeline');

  const workflowMetaSchema = z
    .strictObject({
      name: z.string().describe('workflow name (required, not empty)'),
      version: z.string().optional(),
      description: z.string().optional(),
      author: z.string().optional(),
      format_version: z.string().optional(),
      sample_pattern: z.string().optional().describe('glob-like pattern with {sample}, e.g. "raw/{sample}_R1.fq.gz"'),
      sample_groups_file: z
        .string()
        .optional()
        .describe('TSV or CSV sample sheet (relative to the workflow) with columns name, samples (comma-joined), and metadata columns'),
      pairs_file: z
        .string()
        .optional()
        .describe('TSV or CSV sheet (relative to the workflow) with columns pair_id, experiment (or tumor), control (or normal), experiment_type, and metadata columns'),
    })
    .describe('workflow metadata');

  const defaultsSchema = z
    .strictObject({
      threads: threadsSchema.optional(),
      memory: memorySchema.optional(),
      environment: environmentSchema.optional(),
    })
    .describe('defaults for every rule');

  const reportSchema = z
    .strictObject({
      template: z.string().optional(),
      format: stringOrList.optional().describe('"html", or a list such as ["html", "json"]'),
      sections: z.array(z.string()).optional(),
      title: z.string().optional().describe('the heading of `oxo-flow report`'),
      output: z.string().optional().describe('where `oxo-flow report` writes, relative to the workflow directory'),
    })
    .describe('settings of `oxo-flow report`');

  const metadataSchema = z.record(z.string(), configValueSchema);

  const sampleGroupSchema = z
    .strictObject({
      name: z.string(),
      samples: z.array(z.string()).optional(),
      metadata: metadataSchema.optional(),
    })
    .describe('a named group of samples: a source for {sample} and {group}');

  const pairSchema = z
    .strictObject({
      pair_id: z.string(),
      experiment: z.string().optional().describe('experiment sample (alias: tumor)'),
      tumor: z.string().optional().describe('alias of experiment'),
      control: z.string().optional().describe('control sample (alias: normal)'),
      normal: z.string().optional().describe('alias of control'),
      experiment_type: z.string().optional(),
      metadata: metadataSchema.optional(),
    })
    .describe('an experiment/control pair: a source for {pair_id}, {experiment}, {control}');

  /** `[ai.<command>]` tables: skills for one command only. */
  const aiCommandSchema = z.strictObject({ skills: z.array(z.string()).optional() });

  const aiSchema = z
    .strictObject({
      enabled: z.boolean().optional(),
      skills: z.array(z.string()).optional().describe('skills to activate'),
      provider: z.string().optional(),
      model: z.string().optional(),
      max_rounds: integer().optional(),
      ...Object.fromEntries(AI_COMMANDS.map((c) => [c, aiCommandSchema.optional()])),
    })
    .describe('the opt-in AI layer');

  const workflowFileSchema = z
    .strictObject({
      workflow: workflowMetaSchema,
      config: z.record(z.string(), configEntrySchema).optional().describe('user variables, overridable with KEY=VALUE'),
      defaults: defaultsSchema.optional(),
      report: reportSchema.optional(),
      sample_groups: z.array(sampleGroupSchema).optional(),
      pairs: z.array(pairSchema).optional(),
      ai: aiSchema.optional(),
      variables: z
        .record(z.string(), configValueSchema)
        .optional()
        .describe('accepted for compatibility and ignored: not a sample source (lint W026)'),
      rules: z.array(ruleSchema).optional(),
    })
    .describe('an oxo-flow workflow (.oxoflow, TOML)');

  return { workflowFileSchema, ruleSchema, environmentSchema, configDeclarationSchema, configValueSchema };
}

export type WorkflowSchemas = ReturnType<typeof defineWorkflowSchema>;
export type WorkflowFile = Zod.infer<WorkflowSchemas['workflowFileSchema']>;
export type RuleFile = Zod.infer<WorkflowSchemas['ruleSchema']>;
export type EnvironmentFile = Zod.infer<WorkflowSchemas['environmentSchema']>;
export type ConfigDeclarationFile = Zod.infer<WorkflowSchemas['configDeclarationSchema']>;
