// The command line: every command and flag, each action a lazy import of its own module.
// Nothing here computes; one place (emitResult) prints and picks the exit code.
import { Command, CommanderError, Option } from 'commander';
import { diagnostic } from '../diagnostics/diagnostic.js';
import { packageVersion } from '../package-root.js';
import { decideColor, type CliContext } from './context.js';
import { emitResult, type Streams } from './output.js';
import type { CommandResult } from './result.js';
import { fdSink, isTerminal } from './std-streams.js';
import { makeStyle } from './style.js';

const collect = (value: string, previous: string[]): string[] => [...previous, value];

interface GlobalFlags {
  json?: boolean;
  color?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

const stdout = fdSink(1);
const stderr = fdSink(2);
const streams: Streams = { stdout, stderr };

/**
 * True when all output has reached fds 1 and 2, so the process may exit at once (bin/oxo-flow.js
 * does, rather than leave V8 time for clean-up work nobody waits for).
 */
export function outputWritten(): boolean {
  return stdout.written && stderr.written;
}

function makeContext(flags: GlobalFlags, version: string): CliContext {
  const stderrIsTTY = isTerminal(2);
  let stdinIsTTY: boolean | undefined;
  return {
    cwd: process.cwd(),
    env: process.env,
    json: Boolean(flags.json),
    color: decideColor(process.env, flags.color, stderrIsTTY),
    quiet: Boolean(flags.quiet),
    verbose: Boolean(flags.verbose),
    // Looked up when asked (only the approval gate asks), not process.stdin.isTTY: touching
    // process.stdin builds a stream that only the approval prompt ever reads.
    get stdinIsTTY() {
      return (stdinIsTTY ??= isTerminal(0));
    },
    stderrIsTTY,
    get stdin() {
      return process.stdin;
    },
    get stderr() {
      return process.stderr;
    },
    version,
    now: () => new Date(),
  };
}

type Runner = (ctx: CliContext) => Promise<CommandResult>;

/**
 * The whole command tree, or (with `only`) just the named top-level command: a run that names its
 * command needs nothing else, and building all of them costs more than parsing the command line.
 */
export function buildProgram(version: string, onRun: (name: string, cmd: Command, run: Runner) => Promise<void>, only?: string): Command {
  const wanted = (name: string) => only === undefined || only === name;
  const program = new Command('oxo-flow')
    .description('Bioinformatics workflow engine for .oxoflow pipelines, with an opt-in AI layer')
    .version(version, '--version', 'print the version')
    .option('--json', 'print one JSON document on stdout')
    .option('--no-color', 'no colour in human output')
    .option('-q, --quiet', 'print only errors')
    .option('-v, --verbose', 'print more detail (and stack traces of internal errors)')
    .showSuggestionAfterError(true)
    .enablePositionalOptions(false);

  const action = (name: string, run: (args: unknown[], opts: Record<string, unknown>) => Runner) =>
    function (this: Command, ...args: unknown[]) {
      const cmd = args[args.length - 1] as Command;
      const opts = cmd.opts();
      return onRun(name, cmd, run(args.slice(0, -2), opts));
    };

  const aiOptions = (cmd: Command) =>
    cmd
      .option('--ai', 'add an AI review on top of the deterministic result')
      .option('--no-ai', 'turn off AI even when the workflow enables it')
      .option('--skill <name>', 'activate a skill for this command (repeatable)', collect, [] as string[]);

  if (wanted('validate')) {
    aiOptions(
      program.command('validate').argument('[workflow]', 'the .oxoflow file (default: main.oxoflow here)').description('check a workflow for errors'),
    ).action(
      action('validate', ([wf], opts) => async (ctx) => (await import('./commands/validate.js')).validate({ workflow: wf as string | undefined, ...opts }, ctx)),
    );
  }

  if (wanted('lint')) {
    aiOptions(
      program
        .command('lint')
        .argument('[workflow]', 'the .oxoflow file')
        .option('--strict', 'fail on warnings too')
        .description('check a workflow for errors, risks and style'),
    ).action(action('lint', ([wf], opts) => async (ctx) => (await import('./commands/lint.js')).lint({ workflow: wf as string | undefined, ...opts }, ctx)));
  }

  if (wanted('dry-run')) {
    aiOptions(
      program
        .command('dry-run')
        .argument('[workflow]', 'the .oxoflow file')
        .argument('[overrides...]', 'config overrides KEY=VALUE')
        .option('-t, --target <target>', 'plan only what this rule or output needs (repeatable)', collect, [] as string[])
        .option('--samples <list>', 'comma-separated sample names (instead of the declared sources)')
        .description('show the jobs a run would execute, with their status and commands'),
    ).action(
      action('dry-run', ([wf, overrides], opts) => async (ctx) =>
        (await import('./commands/dry-run.js')).dryRun({ workflow: wf as string | undefined, overrides: (overrides as string[]) ?? [], ...opts }, ctx),
      ),
    );
  }

  if (wanted('graph')) {
    program
      .command('graph')
      .argument('[workflow]', 'the .oxoflow file')
      .argument('[overrides...]', 'config overrides KEY=VALUE')
      .addOption(new Option('-f, --format <format>', 'output format').choices(['ascii', 'dot', 'mermaid']).default('ascii'))
      .option('--expanded', 'draw jobs (one node per sample) instead of rules')
      .option('--samples <list>', 'comma-separated sample names (with --expanded)')
      .description('draw the rule graph, or the job graph with --expanded')
      .action(
        action('graph', ([wf, overrides], opts) => async (ctx) =>
          (await import('./commands/graph.js')).graph({ workflow: wf as string | undefined, overrides: (overrides as string[]) ?? [], ...opts }, ctx),
        ),
      );
  }

  if (wanted('template')) {
    program
      .command('template')
      .argument('[name]', 'template to write (omit to list them)')
      .option('-o, --output <path>', 'where to write it (default: <name>.oxoflow)')
      .option('--force', 'overwrite an existing file')
      .description('list the built-in templates, or write one')
      .action(
        action('template', ([name], opts) => async (ctx) =>
          (await import('./commands/template.js')).template({ name: name as string | undefined, ...opts }, ctx),
        ),
      );
  }

  if (wanted('init')) {
    program
      .command('init')
      .argument('<name>', 'project directory to create')
      .option('-t, --template <template>', 'built-in template to start from', 'hello-world')
      .description('create a new project that validates and dry-runs')
      .action(action('init', ([name], opts) => async (ctx) => (await import('./commands/init.js')).init({ name: name as string, ...opts }, ctx)));
  }

  if (wanted('schema')) {
    program
      .command('schema')
      .description('print the JSON Schema of the .oxoflow format (for editor support)')
      .action(action('schema', () => async (ctx) => (await import('./commands/schema.js')).schema({}, ctx)));
  }

  if (wanted('completions')) {
    program
      .command('completions')
      .addArgument(new Command().createArgument('<shell>', 'bash, zsh or fish').choices(['bash', 'zsh', 'fish']))
      .description('print a shell completion script')
      .action(
        action('completions', ([shell]) => async (ctx) =>
          (await import('./commands/completions.js')).completions({ shell: shell as 'bash' | 'zsh' | 'fish' }, ctx),
        ),
      );
  }

  if (wanted('ai')) registerAi(program, action);
  return program;
}

type Action = (name: string, run: (args: unknown[], opts: Record<string, unknown>) => Runner) => (this: Command, ...args: unknown[]) => Promise<void>;

function registerAi(program: Command, action: Action): void {
  const ai = program.command('ai').description('the AI layer: skills, provider, MCP tools');
  const projectOption = (cmd: Command) => cmd.option('--project <dir>', 'project directory (default: the workflow directory, else the current one)');
  projectOption(
    ai
      .command('status', { isDefault: true })
      .argument('[workflow]', 'the .oxoflow file whose [ai] table to read')
      .option('--check', 'connect to the provider and MCP servers (network)')
      .option('--all', 'list every built-in skill instead of a count')
      .option('--skill <name>', 'activate a skill as --skill would (repeatable)', collect, [] as string[]),
  )
    .description('skills, activation, provider and MCP servers (no network unless --check)')
    .action(
      action('ai status', ([wf], opts) => async (ctx) =>
        (await import('./commands/ai-status.js')).aiStatus({ workflow: wf as string | undefined, ...opts }, ctx),
      ),
    );

  const skills = ai.command('skills').description('list, show, validate and scaffold skills');
  projectOption(skills.command('list').option('--all', 'include every built-in skill').option('--builtin', 'only the built-in library, grouped by domain'))
    .description('list discovered skills with scope, format, type and status')
    .action(action('ai skills list', (_args, opts) => async (ctx) => (await import('./commands/ai-skills.js')).skillsList(opts, ctx)));
  projectOption(skills.command('show').argument('<name>', 'skill name or alias (project/NAME, user/NAME, builtin/NAME)'))
    .description('print exactly the prompt block the skill would inject')
    .action(
      action('ai skills show', ([name], opts) => async (ctx) =>
        (await import('./commands/ai-skills.js')).skillsShow({ name: name as string, ...opts }, ctx),
      ),
    );
  projectOption(skills.command('validate').argument('[path]', 'a skill file, a skill directory, or a skills directory'))
    .description('validate skills and exit 1 on any invalid one')
    .action(
      action('ai skills validate', ([p], opts) => async (ctx) =>
        (await import('./commands/ai-skills.js')).skillsValidate({ path: p as string | undefined, ...opts }, ctx),
      ),
    );
  projectOption(
    skills
      .command('new')
      .argument('<name>', 'skill name (lower-case words joined by -)')
      .addOption(new Option('--format <format>', 'skill format').choices(['toml', 'md']).default('toml'))
      .option('--force', 'overwrite an existing skill'),
  )
    .description('scaffold a valid skill in the project scope')
    .action(
      action('ai skills new', ([name], opts) => async (ctx) =>
        (await import('./commands/ai-skills.js')).skillsNew({ name: name as string, ...opts }, ctx),
      ),
    );

  projectOption(
    ai
      .command('tools')
      .argument('[workflow]', 'the .oxoflow file whose [ai] skills to use')
      .option('--mcp <server>', 'also inspect an MCP server: URL or NAME=URL (repeatable)', collect, [] as string[])
      .option('--skill <name>', 'activate a skill (repeatable)', collect, [] as string[]),
  )
    .description('every tool the model would get, with its approval gate')
    .action(
      action('ai tools', ([wf], opts) => async (ctx) => (await import('./commands/ai-tools.js')).aiTools({ workflow: wf as string | undefined, ...opts }, ctx)),
    );

  const lookup = ai.command('lookup').description('search the built-in knowledge: skills and the pipeline graph (offline)');
  lookup
    .command('skill')
    .argument('<query...>', 'what you want to do, e.g. "paired-end adapter trimming"')
    .option('--limit <n>', 'how many skills to list (1-50, default 5)')
    .description('built-in skills ranked for a query: name, domain, tool, why it matched, score')
    .action(
      action('ai lookup skill', ([query], opts) => async (ctx) =>
        (await import('./commands/ai-lookup.js')).lookupSkill({ query: query as string[], ...opts }, ctx),
      ),
    );
  lookup
    .command('pipeline')
    .option('--from <step>', 'a step: node id, alias or tool (e.g. fastp, star, featurecounts)')
    .option('--to <step>', 'with --from: the shortest paths to this step; alone: what precedes it')
    .option('--stats', 'counts of the pipeline graph')
    .option('--limit <n>', 'how many shortest paths to list (1-50, default 5)')
    .description('what usually follows a step, or the shortest paths between two, with the data on each edge')
    .action(action('ai lookup pipeline', (_args, opts) => async (ctx) => (await import('./commands/ai-lookup.js')).lookupPipeline(opts, ctx)));

  projectOption(
    ai
      .command('call')
      .argument('<tool>', 'tool name as listed by `oxo-flow ai tools`')
      .argument('[workflow]', 'the .oxoflow file whose [ai] skills to use')
      .option('--args <json>', 'tool arguments as a JSON object', '{}')
      .option('--mcp <server>', 'an MCP server: URL or NAME=URL (repeatable)', collect, [] as string[])
      .option('--skill <name>', 'activate a skill (repeatable)', collect, [] as string[]),
  )
    .description('call one tool through the approval gate')
    .action(
      action('ai call', ([tool, wf], opts) => async (ctx) =>
        (await import('./commands/ai-call.js')).aiCall({ tool: tool as string, workflow: wf as string | undefined, ...opts }, ctx),
      ),
    );
}

/** Entry point used by bin/oxo-flow.js. */
export async function main(argv: string[]): Promise<void> {
  const version = packageVersion();
  const wantsJson = argv.includes('--json');
  let exitCode = 0;
  let ran = false;

  const onRun = async (name: string, cmd: Command, run: Runner) => {
    ran = true;
    const ctx = makeContext(cmd.optsWithGlobals() as GlobalFlags, version);
    try {
      const result = await run(ctx);
      exitCode = emitResult(name, result, ctx, streams, makeStyle(ctx.color && !ctx.json));
    } catch (err) {
      exitCode = reportInternalError(name, err, ctx);
    }
  };
  let program = buildProgram(version, onRun, namedCommand(argv));
  // Not a command name after all (a typo, `help`): the whole tree, for help and suggestions.
  if (program.commands.length === 0) program = buildProgram(version, onRun);
  program.exitOverride();
  let usageText = '';
  program.configureOutput({
    writeOut: (s) => streams.stdout.write(s),
    writeErr: (s) => {
      usageText += s;
    },
  });
  for (const sub of program.commands) {
    sub.exitOverride();
    sub.configureOutput({ writeOut: (s) => streams.stdout.write(s), writeErr: (s) => (usageText += s) });
    for (const subsub of sub.commands) {
      subsub.exitOverride();
      subsub.configureOutput({ writeOut: (s) => streams.stdout.write(s), writeErr: (s) => (usageText += s) });
    }
  }

  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') {
        process.exitCode = 0;
        return;
      }
      if (err.code === 'commander.help') {
        // A command group called without a subcommand: its help is the answer, but it is still a usage error.
        streams.stderr.write(usageText);
        process.exitCode = 2;
        return;
      }
      if (err.code === 'commander.executeSubCommandAsync') return;
      const message = (usageText || err.message).replace(/^error:\s*/i, '').trim();
      const [first = message, ...rest] = message.split('\n');
      const suggestion = /\(Did you mean (.+?)\?\)/.exec(message)?.[1];
      const ctx = makeContext({ json: wantsJson, color: !argv.includes('--no-color') }, version);
      const result: CommandResult = {
        outcome: 'usage',
        json: {},
        diagnostics: [
          diagnostic('CLI001', first, suggestion ? { hint: `did you mean ${suggestion}? (see \`oxo-flow --help\`)` } : {}),
        ],
        human: () => rest.filter((line) => !line.startsWith('(Did you mean')).join('\n'),
      };
      process.exitCode = emitResult(commandNameFrom(argv), result, ctx, streams, makeStyle(ctx.color && !ctx.json));
      return;
    }
    throw err;
  }
  if (!ran) {
    program.outputHelp({ error: true });
    process.exitCode = 2;
    return;
  }
  process.exitCode = exitCode;
}

/** The first word of the command line, unless a help flag comes first (root help lists every command). */
function namedCommand(argv: string[]): string | undefined {
  for (const arg of argv.slice(2)) {
    if (arg === '-h' || arg === '--help') return undefined;
    if (!arg.startsWith('-')) return arg;
  }
  return undefined;
}

function commandNameFrom(argv: string[]): string {
  return argv.slice(2).find((a) => !a.startsWith('-')) ?? 'oxo-flow';
}

function reportInternalError(name: string, err: unknown, ctx: CliContext): number {
  const e = err instanceof Error ? err : new Error(String(err));
  const message = `internal error in \`oxo-flow ${name}\`: ${e.message}. This is a bug, please report it with this output (oxo-flow ${ctx.version}, Node ${process.version}).`;
  if (ctx.json) {
    streams.stdout.write(
      `${JSON.stringify({ schema_version: 1, command: name, ok: false, exit_code: 1, internal_error: { message: e.message } }, null, 2)}\n`,
    );
  }
  streams.stderr.write(`${message}\n`);
  if (ctx.verbose && e.stack) streams.stderr.write(`${e.stack}\n`);
  return 1;
}
