// The typed, normalised workflow that the loader produces and everything downstream consumes
// (checks, lint, expansion, DAG, plan). Source positions travel with it so every finding can point
// at file:line:col.

/** 1-based line and column of a key or value in the .oxoflow file. */
export interface Position {
  line: number;
  column: number;
}

/** A key path into the TOML document, e.g. ['rules', 3, 'shell']. */
export type KeyPath = readonly (string | number)[];

/** Answers where a key path sits in the source; falls back to the nearest located ancestor. */
export interface PositionIndex {
  locate(path: KeyPath): Position | undefined;
}

export type ConfigValue = string | number | boolean | ConfigValue[];

export type ConfigType = 'string' | 'int' | 'float' | 'bool' | 'path';

export interface ConfigDeclaration {
  default?: ConfigValue;
  required: boolean;
  help?: string;
  type?: ConfigType;
  choices?: ConfigValue[];
  sensitive: boolean;
}

export interface ConfigEntry {
  key: string;
  /** Effective value: the plain value, or the declared default, or undefined when unset. */
  value: ConfigValue | undefined;
  /** Present for the declarative form `{ default, required, help, type, choices, sensitive }`. */
  declaration?: ConfigDeclaration;
}

/** Inputs or outputs: an ordered list of paths, some of which may carry a name (`{input.bam}`). */
export interface PathSet {
  paths: string[];
  /** name → index into `paths` (table form `input = { bam = "x.bam" }`). */
  names: Record<string, number>;
}

export type EnvironmentKind = 'conda' | 'mamba' | 'pixi' | 'docker' | 'singularity' | 'venv' | 'modules';

export interface Environment {
  kind: EnvironmentKind;
  /** The spec: a file, an image, a directory, or module names. */
  spec: string | string[];
}

export interface Resources {
  threads?: number;
  /** Memory in MB, parsed from `memory` ("8G", "500M", 2048 = MB). */
  memoryMb?: number;
  gpu?: number;
  disk?: string;
  timeLimit?: string;
  /** `timeLimit` in seconds (E038 when it does not parse). */
  timeLimitSeconds?: number;
  /** `memory_hard = true`: the memory is a minimum the job cannot do without, so a run never caps it. */
  memoryHard?: boolean;
}

export interface Scatter {
  variable: string;
  values?: string[];
  /** `config.key` (or a literal comma list) that supplies the values. */
  valuesFrom?: string;
  /** Name of the rule that gathers every clone's outputs. */
  gather?: string;
}

export interface Transform {
  split: { by: string; values?: string[]; valuesFrom?: string };
  map?: string;
  combine?: { shell: string };
  cleanup?: boolean | string;
}

export interface ExpandInput {
  pattern: string;
  /** variable → `config.key` or a literal comma-separated list. */
  variables: Record<string, string>;
}

export interface Rule {
  name: string;
  /** Position of this rule in the [[rules]] array (0-based): the key path is ['rules', index, ...]. */
  index: number;
  description?: string;
  input: PathSet;
  output: PathSet;
  shell?: string;
  script?: string;
  log?: string;
  /**
   * `temp_output` and `protected_output` path templates. Each is also one of the rule's outputs
   * (the loader adds it to `output` when it is not listed there).
   */
  tempOutput: string[];
  protectedOutput: string[];
  /** Effective values: rule-level `threads`/`memory` win over `resources.*`. */
  threads?: number;
  memoryMb?: number;
  /** The text as written, for display ("8G"). */
  memoryText?: string;
  resources: Resources;
  environment?: Environment;
  params: Record<string, ConfigValue>;
  dependsOn: string[];
  when?: string;
  retries: number;
  priority: number;
  /** A command that prints the rule's tool version; run once per run and kept in the run record. */
  versionCommand?: string;
  tags: string[];
  scatter?: Scatter;
  transform?: Transform;
  expandInputs: ExpandInput[];
  /**
   * Set when a run changed the rule's threads or memory (capped, --set-threads, --set-resources):
   * the effective values as the workflow declares them, which the run state compares.
   */
  declared?: { threads: number; memory: string | undefined };
}

/** Where a sample group or pair came from when a sample sheet supplied it (for diagnostics). */
export interface SheetRow {
  file: string;
  line: number;
}

/** One row of a per-sample sheet (`samples_file`): its cells by column, and where each sits. */
export interface SampleRow {
  file: string;
  line: number;
  cells: Record<string, string>;
  /** 1-based character column of each column's cell on the line. */
  at: Record<string, number>;
}

export interface SampleGroup {
  name: string;
  samples: string[];
  metadata: Record<string, ConfigValue>;
  row?: SheetRow;
  /** From a per-sample sheet: each sample's row, whose cells fill `{sample.COLUMN}`. */
  sampleRows?: Record<string, SampleRow>;
}

export interface Pair {
  pairId: string;
  experiment: string;
  control?: string;
  experimentType?: string;
  metadata: Record<string, ConfigValue>;
  row?: SheetRow;
}

/** Commands that may have their own `[ai.<command>]` skills list. */
export const AI_COMMANDS = ['validate', 'lint', 'dry-run', 'template', 'run'] as const;

export interface AiTable {
  enabled?: boolean;
  skills: string[];
  provider?: string;
  model?: string;
  maxRounds?: number;
  /** `[ai.<command>] skills = [...]`: names added for one command only. */
  commands: Record<string, { skills: string[] }>;
}

export interface WorkflowMeta {
  name: string;
  version?: string;
  description?: string;
  author?: string;
  formatVersion?: string;
  samplePattern?: string;
  /** Sample sheets as written (relative to the project directory; may hold `{config.key}`). */
  sampleGroupsFile?: string;
  pairsFile?: string;
  samplesFile?: string;
}

export interface Defaults {
  threads?: number;
  memoryMb?: number;
  memoryText?: string;
  environment?: Environment;
}

export interface Report {
  template?: string;
  format?: string;
  sections?: string[];
  title?: string;
  output?: string;
}

export interface Workflow {
  /** Path of the .oxoflow file as given (used in diagnostics). */
  file: string;
  /**
   * The project directory: data, results, logs, sample sheets and the run state (`.oxo-flow/`) are
   * relative to it. The current directory of the command, or `--directory`.
   */
  dir: string;
  /**
   * The pipeline directory, where the .oxoflow file is: files the pipeline ships (environment specs,
   * `script` files) are relative to it. The same as `dir` when the command runs next to the file.
   */
  pipelineDir: string;
  /** The raw text (for line-based scans such as secret detection). */
  source: string;
  meta: WorkflowMeta;
  config: Map<string, ConfigEntry>;
  defaults: Defaults;
  report?: Report;
  sampleGroups: SampleGroup[];
  /** The sample sheets that were read, as paths relative to `dir` (a `{config.key}` filled in). */
  sheets?: string[];
  /** The per-sample sheet that was read (`samples_file`), with its columns. */
  samplesSheet?: { file: string; columns: string[] };
  pairs: Pair[];
  ai?: AiTable;
  rules: Rule[];
  positions: PositionIndex;
}
