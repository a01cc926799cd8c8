// Every command in one table: its words, the bundle it lives in, its arguments and flags, how
// commander's raw values become the command's typed options, and the module that runs it. main.ts
// builds the command line from this table; scripts/bundle.mjs reads it (from dist/) to decide which
// modules go into the second bundle, which the core requires when one of them runs. Adding a command
// is one entry here.
import { kindList } from '../ai/providers/registry.js';
import { Command, Option } from 'commander';
import { diagnostic, type Diagnostic } from '../diagnostics/diagnostic.js';
import type { AiCallOptions } from './commands/ai-call.js';
import type { AiStatusOptions } from './commands/ai-status.js';
import type { AiSessionsOptions } from './commands/ai-sessions.js';
import type { AiSetupOptions } from './commands/ai-setup.js';
import type { AiToolsOptions } from './commands/ai-tools.js';
import type { AiLoginOptions } from './commands/ai-login.js';
import type { DryRunOptions } from './commands/dry-run.js';
import type { GraphOptions } from './commands/graph.js';
import type { InitOptions } from './commands/init.js';
import type { LintOptions } from './commands/lint.js';
import type { ReportOptions } from './commands/report.js';
import type { RunOptions } from './commands/run.js';
import type { RunsOptions } from './commands/runs.js';
import type { TemplateOptions } from './commands/template.js';
import type { UnlockOptions } from './commands/unlock.js';
import type { CleanOptions } from './commands/clean.js';
import type { ValidateOptions } from './commands/validate.js';
import type { CliContext } from './context.js';
import type { CommandResult } from './result.js';
import { EXECUTOR_NAMES } from '../run/executors/names.js';

/**
 * core: dist/oxo-flow.cjs, the everyday commands; more: dist/oxo-flow-more.cjs, the AI layer and the
 * occasional ones; lookup: dist/oxo-flow-lookup.cjs, `ai lookup` alone (the knowledge index search,
 * which needs none of the rest of the AI layer: compiling the second bundle was most of its start).
 */
type Bundle = 'core' | 'more' | 'lookup';

/** Commander's parsed values: positional arguments in order, and the flags by name. */
export interface RawArgs {
  args: unknown[];
  flags: Record<string, unknown>;
}

/** Typed options, or the usage errors that stop the command before it runs. */
export type Parsed<O> = { ok: true; options: O } | { ok: false; diagnostics: Diagnostic[] };

export interface CommandEntry<O> {
  /** Words after `oxo-flow`: ['validate'], ['ai', 'skills', 'list']. */
  path: string[];
  bundle: Bundle;
  /** The module that runs it, relative to dist/ (scripts/bundle.mjs places it in `bundle`). */
  module: string;
  /** The default subcommand of its group (`oxo-flow ai` is `oxo-flow ai status`). */
  isDefault?: boolean;
  description: string;
  /** Arguments and flags. */
  define(cmd: Command): Command;
  options(raw: RawArgs): Parsed<O>;
  /** The command function, loaded on demand (a literal import() per entry, so the bundler sees it). */
  load(): Promise<(options: O, ctx: CliContext) => Promise<CommandResult>>;
}

/** Groups: words that only hold subcommands. */
export const GROUPS: readonly { path: string[]; description: string }[] = [
  { path: ['ai'], description: 'the AI layer: skills, provider, MCP tools' },
  { path: ['ai', 'skills'], description: 'list, show, validate and scaffold skills' },
  { path: ['ai', 'sessions'], description: 'the AI session records of a project' },
  { path: ['ai', 'lookup'], description: 'search the built-in knowledge: skills and the pipeline graph (offline)' },
  { path: ['runs'], description: 'the recorded runs of a project directory' },
];

// Readers of commander's raw values: the only place an `unknown` becomes a typed option.
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const flag = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : undefined);
/** A repeatable flag that only some commands sharing a reader define: absent stays absent. */
const someList = (v: unknown): string[] | undefined => (v === undefined ? undefined : list(v));
/** A repeatable flag that is left out of the options when it was not given. */
const nonEmpty = (v: unknown): string[] | undefined => (list(v).length > 0 ? list(v) : undefined);
const ok = <O>(options: O): Parsed<O> => ({ ok: true, options });
/** `{ key: value }` without the keys whose value is undefined (options use optional properties). */
function defined<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}

/** `--samples a,b`: names, none empty. `--samples ''` is a usage error, not a list with one empty name. */
function samplesOption(v: unknown): Parsed<string[] | undefined> {
  if (v === undefined) return ok(undefined);
  const names = String(v).split(',').map((s) => s.trim());
  if (names.some((n) => n === '')) {
    return { ok: false, diagnostics: [diagnostic('CLI031', `--samples ${JSON.stringify(v)} has an empty sample name`, { hint: 'write the names separated by commas, e.g. --samples ctrl_1,kd_1' })] };
  }
  return ok(names);
}

const collect = (value: string, previous: string[]): string[] => [...previous, value];

function aiFlags(cmd: Command): Command {
  return cmd
    .option('--ai', 'add an AI review on top of the deterministic result')
    .option('--no-ai', 'turn off AI even when the workflow enables it')
    .option('--skill <name>', 'activate a skill for this command (repeatable)', collect, [] as string[]);
}
/** What dry-run and run share about the run's resources (src/cli/run-args.ts reads them). */
function resourceFlags(cmd: Command): Command {
  return cmd
    .option('--omit-from <target>', 'leave out this rule, job or output and everything after it (repeatable)', collect, [] as string[])
    .option('--set-threads <rule=n>', "set a rule's threads for this run, e.g. align=4 (repeatable)", collect, [] as string[])
    .option('--set-resources <rule:key=value>', "set a rule's mem, mem_mb or time_limit for this run, e.g. align:mem=8G (repeatable)", collect, [] as string[])
    .addOption(new Option('--env <mode>', 'declared environments: use them (declared), only where their program is installed (auto), or not at all (none)').choices(['declared', 'auto', 'none']));
}
/** Where the project is and where its config comes from: validate, lint, dry-run, graph and run. */
function projectFlags(cmd: Command): Command {
  return cmd
    .option('-d, --directory <dir>', 'the project directory: data, results, logs and .oxo-flow/ are read and written there (default: the current directory)')
    .option('--configfile <file>', 'set [config] values from a TOML, JSON or YAML file (repeatable; a later file wins, KEY=VALUE wins over files)', collect, [] as string[]);
}
/** runs and report: the project whose run records to read, as `--project DIR` or, as for run, `-d DIR`. */
const recordsFlags = (cmd: Command) =>
  cmd.option('--project <dir>', 'the project directory (default: the current one)').option('-d, --directory <dir>', 'the same as --project, as run spells it');
const recordsProject = (r: RawArgs) => str(r.flags.project) ?? str(r.flags.directory);
const projectFlag = (cmd: Command) => cmd.option('--project <dir>', 'project directory (default: the workflow directory, else the current one)');

function planOptions(raw: RawArgs): Parsed<DryRunOptions & GraphOptions & RunOptions> {
  const samples = samplesOption(raw.flags.samples);
  if (!samples.ok) return samples;
  return ok(
    defined({
      workflow: str(raw.args[0]),
      overrides: list(raw.args[1]),
      target: list(raw.flags.target),
      samples: samples.options,
      ai: flag(raw.flags.ai),
      skill: list(raw.flags.skill),
      format: str(raw.flags.format) as GraphOptions['format'],
      expanded: flag(raw.flags.expanded),
      forcerun: someList(raw.flags.forcerun),
      jobs: str(raw.flags.jobs),
      cores: str(raw.flags.cores),
      memory: str(raw.flags.memory),
      keepGoing: flag(raw.flags.keepGoing),
      executor: str(raw.flags.executor) as RunOptions['executor'],
      partition: str(raw.flags.partition),
      account: str(raw.flags.account),
      omitFrom: nonEmpty(raw.flags.omitFrom),
      directory: str(raw.flags.directory),
      configfile: nonEmpty(raw.flags.configfile),
      setThreads: nonEmpty(raw.flags.setThreads),
      setResources: nonEmpty(raw.flags.setResources),
      env: str(raw.flags.env),
      dryRun: flag(raw.flags.dryRun),
      touch: flag(raw.flags.touch),
      list: flag(raw.flags.list),
      summary: flag(raw.flags.summary),
      profile: str(raw.flags.profile),
      pollInterval: str(raw.flags.pollInterval),
      lockTimeout: str(raw.flags.lockTimeout),
      record: flag(raw.flags.record),
    }),
  );
}

/** What validate and lint both take: the workflow, overrides, project flags and the AI flags. */
function checkOptions(r: RawArgs) {
  return {
    workflow: str(r.args[0]),
    overrides: list(r.args[1]),
    directory: str(r.flags.directory),
    configfile: nonEmpty(r.flags.configfile),
    ai: flag(r.flags.ai),
    skill: list(r.flags.skill),
  };
}

/** Keeps each entry's option type while the table holds them all. */
function entry<O>(e: CommandEntry<O>): CommandEntry<unknown> {
  return e as unknown as CommandEntry<unknown>;
}

export const COMMANDS: readonly CommandEntry<unknown>[] = [
  entry<ValidateOptions>({
    path: ['validate'],
    bundle: 'core',
    module: 'cli/commands/validate.js',
    description: 'check a workflow for errors',
    define: (c) =>
      aiFlags(
        projectFlags(
          c
            .argument('[workflow]', 'the .oxoflow file (default: main.oxoflow in the project directory)')
            .argument('[overrides...]', 'config values KEY=VALUE (types and choices are checked)'),
        ),
      ),
    options: (r) => ok(defined(checkOptions(r))),
    load: async () => (await import('./commands/validate.js')).validate,
  }),
  entry<LintOptions>({
    path: ['lint'],
    bundle: 'core',
    module: 'cli/commands/lint.js',
    description: 'check a workflow for errors, risks and style',
    define: (c) =>
      aiFlags(
        projectFlags(
          c
            .argument('[workflow]', 'the .oxoflow file')
            .argument('[overrides...]', 'config values KEY=VALUE (types and choices are checked)')
            .option('--strict', 'fail on warnings too'),
        ),
      ),
    options: (r) => ok(defined({ ...checkOptions(r), strict: flag(r.flags.strict) })),
    load: async () => (await import('./commands/lint.js')).lint,
  }),
  entry<DryRunOptions>({
    path: ['dry-run'],
    bundle: 'core',
    module: 'cli/commands/dry-run.js',
    description: 'show the jobs a run would execute, with their status and commands',
    define: (c) =>
      aiFlags(
        resourceFlags(
          projectFlags(c)
            .argument('[workflow]', 'the .oxoflow file; other words are targets (a rule or an output) or KEY=VALUE config overrides')
            .argument('[overrides...]', 'targets (a rule name or an output path) and config overrides KEY=VALUE')
            .option('-t, --target <target>', 'plan only what this rule or output needs (repeatable)', collect, [] as string[])
            .option('--samples <list>', 'comma-separated sample names (instead of the declared sources)')
            .option('--forcerun <rule>', 'plan every job of this rule (and what follows) to run again (repeatable)', collect, [] as string[])
            .option('--cores <n>', "cores the run would have: threads above it are capped (default: this machine's)")
            .option('--memory <size>', "memory the run would have, e.g. 16G (default: this machine's)")
            .addOption(new Option('--executor <executor>', "plan as this executor runs (default: the profile's, else local; local caps threads and memory to the machine, a cluster does not)").choices([...EXECUTOR_NAMES]))
            .option('--profile <file>', 'executor profile (default: .oxo-flow/profile.toml when it exists)'),
        ),
      ),
    options: planOptions,
    load: async () => (await import('./commands/dry-run.js')).dryRun,
  }),
  entry<RunOptions>({
    path: ['run'],
    // The executors are a quarter of the core's size; a run lasts minutes, so it loads the second
    // bundle rather than make every validate and dry-run parse them.
    bundle: 'more',
    module: 'cli/commands/run.js',
    description: 'run the jobs dry-run lists, in dependency order, and record their state',
    define: (c) =>
      resourceFlags(
        projectFlags(c)
          .argument('[workflow]', 'the .oxoflow file; other words are targets (a rule or an output) or KEY=VALUE config overrides')
          .argument('[overrides...]', 'targets (a rule name or an output path) and config overrides KEY=VALUE')
          .option('-n, --dry-run', 'show what would run and run nothing (as `oxo-flow dry-run`)')
          .option('--touch', 'mark the outputs of the jobs that would run as up to date, without running them')
          .option('--list', 'list the rules of the workflow')
          .option('--summary', 'list every output with its status, rule and date')
          .option('-j, --jobs <n>', 'run at most N jobs at a time (default: the cores)')
          .option('--cores <n>', "cores the jobs' threads may use together; threads above it are capped (default: this machine's)")
          .option('--memory <size>', "memory the jobs may use together, e.g. 16G; memory above it is capped unless memory_hard (default: this machine's)")
          .option('-k, --keep-going', 'keep running independent jobs after a job fails')
          .option('-t, --target <target>', 'run only what this rule or output needs (repeatable)', collect, [] as string[])
          .option('--samples <list>', 'comma-separated sample names (instead of the declared sources)')
          .option('--forcerun <rule>', 'run every job of this rule (and what follows) again (repeatable)', collect, [] as string[])
          .addOption(new Option('--executor <executor>', 'where jobs run (default: the profile\'s, else local)').choices([...EXECUTOR_NAMES]))
          .option('--partition <partition>', 'Slurm partition (with --executor slurm)')
          .option('--account <account>', 'Slurm account (with --executor slurm)')
          .option('--profile <file>', 'executor profile (default: .oxo-flow/profile.toml when it exists)')
          .option('--poll-interval <duration>', 'how often squeue/qstat is asked, e.g. 60s (default: 30s)')
          .option('--lock-timeout <duration>', "take over another host's project lock after this long, e.g. 12h")
          .option('--no-record', 'keep no run record under .oxo-flow/runs/ (see oxo-flow runs)'),
      ),
    options: planOptions,
    load: async () => (await import('./commands/run.js')).run,
  }),
  entry<RunsOptions>({
    path: ['runs', 'list'],
    bundle: 'more',
    module: 'cli/commands/runs.js',
    isDefault: true,
    description: 'list past runs: id, start, duration, status, jobs done and failed, exit code',
    define: (c) => recordsFlags(c),
    options: (r) => ok(defined({ project: recordsProject(r) })),
    load: async () => (await import('./commands/runs.js')).runsList,
  }),
  entry<RunsOptions & { id: string }>({
    path: ['runs', 'show'],
    bundle: 'more',
    module: 'cli/commands/runs.js',
    description: 'print one run: workflow hash, command, host, tools, environments and every job with its CPU and memory',
    define: (c) => recordsFlags(c.argument('[id]', 'run id (or a unique prefix) as listed by `oxo-flow runs`; default: the newest')),
    options: (r) => ok(defined({ id: str(r.args[0]) ?? 'last', project: recordsProject(r) })),
    load: async () => (await import('./commands/runs.js')).runsShow,
  }),
  entry<ReportOptions>({
    path: ['report'],
    bundle: 'more',
    module: 'cli/commands/report.js',
    description: 'write one self-contained HTML report of a run: DAG, timeline, CPU and memory per rule, jobs, provenance',
    define: (c) =>
      recordsFlags(
        c
          .argument('[run]', 'run id (or a unique prefix) as listed by `oxo-flow runs`; default: the newest')
          .option('-o, --output <file>', 'where to write (default: [report] output, else report-<run id>.html or .json in the project)')
          .addOption(new Option('--format <format>', 'html, or json for the same data').choices(['html', 'json']).default('html')),
      ),
    options: (r) => ok(defined({ run: str(r.args[0]), output: str(r.flags.output), format: str(r.flags.format) as ReportOptions['format'], project: recordsProject(r) })),
    load: async () => (await import('./commands/report.js')).report,
  }),
  entry<GraphOptions>({
    path: ['graph'],
    bundle: 'core',
    module: 'cli/commands/graph.js',
    description: 'draw the rule graph, or the job graph with --expanded',
    define: (c) =>
      projectFlags(c)
        .argument('[workflow]', 'the .oxoflow file')
        .argument('[overrides...]', 'config overrides KEY=VALUE')
        .addOption(new Option('-f, --format <format>', 'output format').choices(['ascii', 'dot', 'mermaid']).default('ascii'))
        .option('--expanded', 'draw jobs (one node per sample) instead of rules')
        .option('--samples <list>', 'comma-separated sample names (with --expanded)'),
    options: planOptions,
    load: async () => (await import('./commands/graph.js')).graph,
  }),
  entry<TemplateOptions>({
    path: ['template'],
    bundle: 'more',
    module: 'cli/commands/template.js',
    description: 'list the built-in templates, write one, or draft one with --ai',
    define: (c) =>
      c
        .argument('[name]', 'template to write (omit to list them)')
        .option('-o, --output <path>', 'where to write it (default: <name>.oxoflow)')
        .option('--force', 'overwrite an existing file')
        .option('--ai <intent>', 'draft a new workflow from a description with the AI (written only once it validates)')
        .option('--from-file <file>', 'with --ai: a file for the model to read, e.g. a sample sheet (repeatable)', collect, [] as string[])
        .option('--skill <name>', 'with --ai: activate a skill (repeatable)', collect, [] as string[]),
    options: (r) =>
      ok(
        defined({
          name: str(r.args[0]),
          output: str(r.flags.output),
          force: flag(r.flags.force),
          ai: str(r.flags.ai),
          fromFile: list(r.flags.fromFile),
          skill: list(r.flags.skill),
        }),
      ),
    load: async () => (await import('./commands/template.js')).template,
  }),
  entry<UnlockOptions>({
    path: ['unlock'],
    bundle: 'more',
    module: 'cli/commands/unlock.js',
    description: 'remove the project lock a run left behind',
    define: (c) =>
      c
        .argument('[workflow]', 'the .oxoflow file, or the project directory')
        .option('-d, --directory <dir>', 'the project directory whose lock to remove (default: the current directory)')
        .option('--force', 'remove it even if its run seems to be alive on this host'),
    options: (r) => ok(defined({ workflow: str(r.args[0]), directory: str(r.flags.directory), force: flag(r.flags.force) })),
    load: async () => (await import('./commands/unlock.js')).unlock,
  }),
  entry<CleanOptions>({
    path: ['clean'],
    bundle: 'more',
    module: 'cli/commands/clean.js',
    description: 'keep .oxo-flow/ small: fold the run state into its index, drop old run records',
    define: (c) =>
      c
        .argument('[workflow]', 'the .oxoflow file, or the project directory')
        .option('-d, --directory <dir>', 'the project directory whose .oxo-flow/ to clean (default: the current directory)')
        .option('--state', 'fold every journal a finished run left (and older per-job state files) into the state index')
        .option('--keep-runs <n>', 'remove all but the newest N run records under .oxo-flow/runs/'),
    options: (r) => ok(defined({ workflow: str(r.args[0]), directory: str(r.flags.directory), state: flag(r.flags.state), keepRuns: str(r.flags.keepRuns) })),
    load: async () => (await import('./commands/clean.js')).clean,
  }),
  entry<InitOptions>({
    path: ['init'],
    bundle: 'more',
    module: 'cli/commands/init.js',
    description: 'create a new project that validates and dry-runs',
    define: (c) => c.argument('<name>', 'project directory to create').option('-t, --template <template>', 'built-in template to start from', 'hello-world'),
    options: (r) => ok(defined({ name: str(r.args[0]) ?? '', template: str(r.flags.template) })),
    load: async () => (await import('./commands/init.js')).init,
  }),
  entry<Record<string, never>>({
    path: ['schema'],
    bundle: 'more',
    module: 'cli/commands/schema.js',
    description: 'print the JSON Schema of the .oxoflow format (for editor support)',
    define: (c) => c,
    options: () => ok({}),
    load: async () => (await import('./commands/schema.js')).schema,
  }),
  entry<{ shell: 'bash' | 'zsh' | 'fish' }>({
    path: ['completions'],
    bundle: 'more',
    module: 'cli/commands/completions.js',
    description: 'print a shell completion script',
    define: (c) => c.addArgument(new Command().createArgument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish'])),
    options: (r) => ok({ shell: str(r.args[0]) as 'bash' | 'zsh' | 'fish' }),
    load: async () => (await import('./commands/completions.js')).completions,
  }),
  entry<AiStatusOptions>({
    path: ['ai', 'status'],
    bundle: 'more',
    module: 'cli/commands/ai-status.js',
    isDefault: true,
    description: 'skills, activation, provider and MCP servers (no network unless --check)',
    define: (c) =>
      projectFlag(
        c
          .argument('[workflow]', 'the .oxoflow file whose [ai] table to read')
          .option('--check', 'use the network: connect to the MCP servers of active tool skills and send the provider one small request')
          .option('--all', 'list every built-in skill instead of a count')
          .option('--skill <name>', 'activate a skill as --skill would (repeatable)', collect, [] as string[]),
      ),
    options: (r) => ok(defined({ workflow: str(r.args[0]), project: str(r.flags.project), check: flag(r.flags.check), all: flag(r.flags.all), skill: list(r.flags.skill) })),
    load: async () => (await import('./commands/ai-status.js')).aiStatus,
  }),
  entry<{ project?: string; all?: boolean; builtin?: boolean }>({
    path: ['ai', 'skills', 'list'],
    bundle: 'more',
    module: 'cli/commands/ai-skills.js',
    description: 'list discovered skills with scope, format, type and status',
    define: (c) => projectFlag(c.option('--all', 'include every built-in skill').option('--builtin', 'only the built-in library, grouped by domain')),
    options: (r) => ok(defined({ project: str(r.flags.project), all: flag(r.flags.all), builtin: flag(r.flags.builtin) })),
    load: async () => (await import('./commands/ai-skills.js')).skillsList,
  }),
  entry<{ project?: string; name: string }>({
    path: ['ai', 'skills', 'show'],
    bundle: 'more',
    module: 'cli/commands/ai-skills.js',
    description: 'print exactly the prompt block the skill would inject',
    define: (c) => projectFlag(c.argument('<name>', 'skill name or alias (project/NAME, user/NAME, builtin/NAME)')),
    options: (r) => ok(defined({ name: str(r.args[0]) ?? '', project: str(r.flags.project) })),
    load: async () => (await import('./commands/ai-skills.js')).skillsShow,
  }),
  entry<{ project?: string; path?: string; strict?: boolean }>({
    path: ['ai', 'skills', 'validate'],
    bundle: 'more',
    module: 'cli/commands/ai-skills.js',
    description: 'validate skills and exit 1 on any invalid one',
    define: (c) =>
      projectFlag(
        c
          .argument('[path]', 'a skill file, a skill directory, or a skills directory')
          .option('--strict', 'fail on warnings too (e.g. a name that differs from its folder)'),
      ),
    options: (r) => ok(defined({ path: str(r.args[0]), project: str(r.flags.project), strict: flag(r.flags.strict) })),
    load: async () => (await import('./commands/ai-skills.js')).skillsValidate,
  }),
  entry<{ project?: string; name: string; format?: string; force?: boolean }>({
    path: ['ai', 'skills', 'new'],
    bundle: 'more',
    module: 'cli/commands/ai-skills.js',
    description: 'scaffold a valid skill in the project scope',
    define: (c) =>
      projectFlag(
        c
          .argument('<name>', 'skill name (lower-case words joined by -)')
          .addOption(new Option('--format <format>', 'skill format').choices(['toml', 'md']).default('toml'))
          .option('--force', 'overwrite an existing skill'),
      ),
    options: (r) => ok(defined({ name: str(r.args[0]) ?? '', project: str(r.flags.project), format: str(r.flags.format), force: flag(r.flags.force) })),
    load: async () => (await import('./commands/ai-skills.js')).skillsNew,
  }),
  entry<AiLoginOptions>({
    path: ['ai', 'login'],
    bundle: 'more',
    module: 'cli/commands/ai-login.js',
    description: 'log in to an OAuth-protected MCP server (opens your browser; tokens kept 0600)',
    define: (c) => projectFlag(c.argument('<server>', 'a tool skill\'s name, or NAME=URL')),
    options: (r) => ok(defined({ server: str(r.args[0]) ?? '', project: str(r.flags.project) })),
    load: async () => (await import('./commands/ai-login.js')).aiLogin,
  }),
  entry<AiLoginOptions>({
    path: ['ai', 'logout'],
    bundle: 'more',
    module: 'cli/commands/ai-login.js',
    description: 'forget the OAuth tokens of an MCP server',
    define: (c) => projectFlag(c.argument('<server>', 'a tool skill\'s name, or NAME=URL')),
    options: (r) => ok(defined({ server: str(r.args[0]) ?? '', project: str(r.flags.project) })),
    load: async () => (await import('./commands/ai-login.js')).aiLogout,
  }),
  entry<AiToolsOptions>({
    path: ['ai', 'tools'],
    bundle: 'more',
    module: 'cli/commands/ai-tools.js',
    description: 'every tool the model would get, with its approval gate',
    define: (c) =>
      projectFlag(
        c
          .argument('[workflow]', 'the .oxoflow file whose [ai] skills to use')
          .option('--mcp <server>', 'also inspect an MCP server: URL or NAME=URL (repeatable)', collect, [] as string[])
          .option('--skill <name>', 'activate a skill (repeatable)', collect, [] as string[]),
      ),
    options: (r) => ok(defined({ workflow: str(r.args[0]), project: str(r.flags.project), mcp: list(r.flags.mcp), skill: list(r.flags.skill) })),
    load: async () => (await import('./commands/ai-tools.js')).aiTools,
  }),
  entry<AiCallOptions>({
    path: ['ai', 'call'],
    bundle: 'more',
    module: 'cli/commands/ai-call.js',
    description: 'call one tool through the approval gate',
    define: (c) =>
      projectFlag(
        c
          .argument('<tool>', 'tool name as listed by `oxo-flow ai tools`')
          .argument('[workflow]', 'the .oxoflow file whose [ai] skills to use')
          .option('--args <json>', 'tool arguments as a JSON object', '{}')
          .option('--mcp <server>', 'an MCP server: URL or NAME=URL (repeatable)', collect, [] as string[])
          .option('--skill <name>', 'activate a skill (repeatable)', collect, [] as string[]),
      ),
    options: (r) =>
      ok(defined({ tool: str(r.args[0]) ?? '', workflow: str(r.args[1]), project: str(r.flags.project), args: str(r.flags.args), mcp: list(r.flags.mcp), skill: list(r.flags.skill) })),
    load: async () => (await import('./commands/ai-call.js')).aiCall,
  }),
  entry<AiSetupOptions>({
    path: ['ai', 'setup'],
    bundle: 'more',
    module: 'cli/commands/ai-setup.js',
    description: 'configure the AI provider once: writes $OXO_FLOW_HOME/ai_config.json (mode 0600)',
    define: (c) =>
      c
        .option('--provider <kind>', `${kindList()} (no questions asked)`)
        .option('--model <model>', "model name (default: the kind's current default)")
        .option('--base-url <url>', 'endpoint, e.g. http://localhost:11434/v1')
        .option('--key-env <name>', 'environment variable that holds the API key (the key never goes on the command line)'),
    options: (r) => ok(defined({ provider: str(r.flags.provider), model: str(r.flags.model), baseUrl: str(r.flags.baseUrl), keyEnv: str(r.flags.keyEnv) })),
    load: async () => (await import('./commands/ai-setup.js')).aiSetup,
  }),
  entry<AiSessionsOptions>({
    path: ['ai', 'sessions', 'list'],
    bundle: 'more',
    module: 'cli/commands/ai-sessions.js',
    isDefault: true,
    description: 'list the AI session records, newest first',
    define: (c) => projectFlag(c),
    options: (r) => ok(defined({ project: str(r.flags.project) })),
    load: async () => (await import('./commands/ai-sessions.js')).sessionsList,
  }),
  entry<AiSessionsOptions & { id: string }>({
    path: ['ai', 'sessions', 'show'],
    bundle: 'more',
    module: 'cli/commands/ai-sessions.js',
    description: 'print one session: provider, skills, tools, each call with its approval decision, usage',
    define: (c) => projectFlag(c.argument('<id>', 'session id as listed by `oxo-flow ai sessions`')),
    options: (r) => ok(defined({ id: str(r.args[0]) ?? '', project: str(r.flags.project) })),
    load: async () => (await import('./commands/ai-sessions.js')).sessionsShow,
  }),
  entry<{ query: string[]; limit?: string }>({
    path: ['ai', 'lookup', 'skill'],
    bundle: 'lookup',
    module: 'cli/commands/ai-lookup.js',
    description: 'built-in skills ranked for a query: name, domain, tool, why it matched, score',
    define: (c) => c.argument('<query...>', 'what you want to do, e.g. "paired-end adapter trimming"').option('--limit <n>', 'how many skills to list (1-50, default 5)'),
    options: (r) => ok(defined({ query: list(r.args[0]), limit: str(r.flags.limit) })),
    load: async () => (await import('./commands/ai-lookup.js')).lookupSkill,
  }),
  entry<{ from?: string; to?: string; stats?: boolean; limit?: string; assay?: string; mixed?: boolean }>({
    path: ['ai', 'lookup', 'pipeline'],
    bundle: 'lookup',
    module: 'cli/commands/ai-lookup.js',
    description: 'what usually follows a step, or the routes between two as pipelines run them, with the data on each edge',
    define: (c) =>
      c
        .option('--from <step>', 'a step: node id, alias or tool (e.g. fastp, star, featurecounts)')
        .option('--to <step>', 'with --from: the routes to this step, best practice first; alone: what precedes it')
        .option('--assay <assay>', 'with --from and --to: keep to the pipelines of one assay (rna-seq, dna-variants, atac-seq, ...)')
        .option('--mixed', 'with --from and --to: also list routes that join steps of different pipelines')
        .option('--stats', 'counts of the pipeline graph')
        .option('--limit <n>', 'how many routes to list (1-50, default 5)'),
    options: (r) =>
      ok(defined({ from: str(r.flags.from), to: str(r.flags.to), stats: flag(r.flags.stats), limit: str(r.flags.limit), assay: str(r.flags.assay), mixed: flag(r.flags.mixed) })),
    load: async () => (await import('./commands/ai-lookup.js')).lookupPipeline,
  }),
];

/** The name a command reports in --json (`ai skills list`). */
export const commandName = (path: readonly string[]): string => path.join(' ');
