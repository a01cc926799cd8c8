// The command line: builds commander's tree from the command table, runs the one command, and ends
// every path (success, failure, usage error, internal error, Ctrl-C) through one function, finish(),
// which prints the result (emitResult) and sets the exit code.
import { cacheDirectory, diskAnalysisStore } from './shell-cache.js';
import { setAnalysisStore } from '../workflow/render/shell-contexts.js';
import { setParserCodeCache } from '../workflow/render/shell-parser.js';
import { existsSync } from 'node:fs';
import { resolve as resolvePath } from 'node:path';
import { Command, CommanderError } from 'commander';
import { secretsFromEnv } from '../ai/secrets.js';
import { diagnostic } from '../diagnostics/diagnostic.js';
import { packageVersion } from '../package-root.js';
import { decideColor, type CliContext } from './context.js';
import { emitResult, type Streams } from './output.js';
import { COMMANDS, GROUPS, commandName, type CommandEntry, type RawArgs } from './command-table.js';
import { exitCodeFor, failure, outcomeOf, type CommandResult } from './result.js';
import { nearestName } from '../diagnostics/nearest-name.js';
import { fdSink, isTerminal, type TextSink } from './std-streams.js';
import { makeStyle } from './style.js';

interface GlobalFlags {
  json?: boolean;
  color?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

/** The outside world of one command-line run: the real process (main), or a test's stand-ins. */
export interface Io {
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdout: TextSink;
  stderr: TextSink;
  /** Whether descriptor 0 or 2 is a terminal; asked only when needed. */
  isTerminal(fd: 0 | 2): boolean;
  /** The streams the approval prompt reads and writes. */
  readonly stdin: NodeJS.ReadableStream;
  readonly prompt: NodeJS.WritableStream;
}

const stdout = fdSink(1);
const stderr = fdSink(2);
const processIo: Io = {
  cwd: process.cwd(),
  env: process.env,
  stdout,
  stderr,
  isTerminal,
  // Getters: touching process.stdin builds a stream that only the approval prompt ever reads.
  get stdin() {
    return process.stdin;
  },
  get prompt() {
    return process.stderr;
  },
};

/**
 * True when all output has reached fds 1 and 2, so the process may exit at once (bin/oxo-flow.js
 * does, rather than leave V8 time for clean-up work nobody waits for).
 */
export function outputWritten(): boolean {
  return stdout.written && stderr.written;
}

/**
 * What every context of one command line shares: whether stderr is a terminal, and the secret values
 * of the environment. Asked once: a command line builds a context before parsing and another after.
 */
interface ProcessFacts {
  stderrIsTTY: boolean;
  envSecrets: readonly string[];
}

function processFacts(io: Io): ProcessFacts {
  return { stderrIsTTY: io.isTerminal(2), envSecrets: secretsFromEnv(io.env) };
}

function makeContext(flags: GlobalFlags, version: string, io: Io, facts: ProcessFacts, interruptHandlers: Set<InterruptHandler>): CliContext {
  const stderrIsTTY = facts.stderrIsTTY;
  let stdinIsTTY: boolean | undefined;
  return {
    cwd: io.cwd,
    env: io.env,
    json: Boolean(flags.json),
    color: decideColor(io.env, flags.color, stderrIsTTY),
    quiet: Boolean(flags.quiet),
    verbose: Boolean(flags.verbose),
    // Looked up when asked (only the approval gate asks).
    get stdinIsTTY() {
      return (stdinIsTTY ??= io.isTerminal(0));
    },
    stderrIsTTY,
    get stdin() {
      return io.stdin;
    },
    get stderr() {
      return io.prompt;
    },
    version,
    now: () => new Date(),
    secrets: new Set(facts.envSecrets),
    onInterrupt: (handler) => {
      interruptHandlers.add(handler);
      return () => interruptHandlers.delete(handler);
    },
  };
}

/** A command's Ctrl-C handler (CliContext.onInterrupt). */
type InterruptHandler = (again?: boolean) => unknown;

/** What main.ts does with a parsed command line: the table entry, commander's raw values, the command. */
type OnRun = (entry: CommandEntry<unknown>, raw: RawArgs, cmd: Command) => Promise<void>;

/**
 * The command tree from the table (src/cli/command-table.ts), or (with `only`) just the commands under
 * that first word: a run that names its command needs nothing else, and building all of them costs
 * more than parsing the command line.
 */
export function buildProgram(version: string, onRun: OnRun, only?: string): Command {
  const program = new Command('oxo-flow')
    .description('Bioinformatics workflow engine for .oxoflow pipelines, with an opt-in AI layer')
    .version(version, '--version', 'print the version')
    .option('--json', 'print one JSON document on stdout')
    .option('--no-color', 'no colour in human output')
    .option('-q, --quiet', 'print only errors')
    .option('-v, --verbose', 'print more detail (and stack traces of internal errors)')
    .showSuggestionAfterError(true)
    .enablePositionalOptions(false);
  const nodes = new Map<string, Command>([['', program]]);
  const parentOf = (path: readonly string[]): Command => {
    const key = path.slice(0, -1).join(' ');
    let parent = nodes.get(key);
    if (parent === undefined) {
      const group = GROUPS.find((g) => g.path.join(' ') === key);
      parent = parentOf(path.slice(0, -1)).command(path[path.length - 2]!).description(group?.description ?? '');
      nodes.set(key, parent);
    }
    return parent;
  };
  for (const entry of COMMANDS) {
    if (only !== undefined && entry.path[0] !== only) continue;
    const cmd = parentOf(entry.path).command(entry.path[entry.path.length - 1]!, entry.isDefault ? { isDefault: true } : {});
    entry.define(cmd).description(entry.description);
    cmd.action(function (this: Command, ...args: unknown[]) {
      const self = args[args.length - 1] as Command;
      return onRun(entry, { args: args.slice(0, -2), flags: self.opts() }, self);
    });
  }
  return program;
}

/** Entry point used by bin/oxo-flow.js: the real process, and Ctrl-C handled. */
export async function main(argv: string[]): Promise<void> {
  const dir = cacheDirectory(process.env);
  if (dir !== undefined) {
    setAnalysisStore(diskAnalysisStore(dir));
    // One cache per exact Node release: a V8 cache made by another Node 20 patch release can crash.
    setParserCodeCache(resolvePath(dir, `mvdan-sh-${process.version}-${process.arch}.v8cache`));
  }
  process.exitCode = await runCommandLine(argv, processIo, { handleInterrupt: true });
}

/** One command line, start to end; returns the exit code. Tests call it in-process with their own Io. */
export async function runCommandLine(argv: string[], io: Io, options: { handleInterrupt?: boolean } = {}): Promise<number> {
  const version = packageVersion();
  const streams: Streams = { stdout: io.stdout, stderr: io.stderr };
  let name = commandNameFrom(argv);
  const interruptHandlers = new Set<InterruptHandler>();
  const facts = processFacts(io);
  let ctx = makeContext({ json: argv.includes('--json'), ...(argv.includes('--no-color') ? { color: false } : {}) }, version, io, facts, interruptHandlers);
  let exitCode: number | undefined;
  /** The one exit point: print the result (one JSON document with --json) and decide the exit code. */
  const finish = (result: CommandResult): void => {
    if (exitCode !== undefined) return;
    exitCode = emitResult(name, result, ctx, streams, makeStyle(ctx.color && !ctx.json));
  };
  // Ctrl-C, for every command: a command that stops cleanly by itself has registered a handler
  // (ctx.onInterrupt) and returns its own result; otherwise, and on a second Ctrl-C, the result says
  // so (CLI130) and the process ends with 130 at once, whatever was in flight (an MCP connection, say).
  let interrupted = false;
  const onInterrupt = () => {
    if (!interrupted && interruptHandlers.size > 0) {
      interrupted = true;
      for (const handler of [...interruptHandlers]) handler();
      return;
    }
    // A second Ctrl-C: each handler gets its last word, synchronously (run kills what is left and
    // records it), then the process ends.
    let last: CommandResult | undefined;
    if (interrupted) {
      for (const handler of [...interruptHandlers]) {
        try {
          const r = handler(true);
          if (r !== null && typeof r === 'object' && 'outcome' in r) last = r as CommandResult;
        } catch {
          // Ending now matters more.
        }
      }
    }
    finish(last ?? failure('interrupted', [diagnostic('CLI130', `\`oxo-flow ${name}\` was interrupted`)]));
    process.exit(130);
  };
  if (options.handleInterrupt) process.on('SIGINT', onInterrupt);
  try {
    await parseAndRun(argv, version, io, facts, interruptHandlers, {
      named: (n) => (name = n),
      context: (c) => (ctx = c),
      finish,
      // The --ai review streams after the deterministic output, which is already complete.
      after: async (run) => {
        if ((await run(io.stderr, makeStyle(ctx.color && !ctx.json))) === 'interrupted') exitCode = exitCodeFor('interrupted');
      },
    });
  } catch (err) {
    finish(internalError(name, err, ctx));
  } finally {
    if (options.handleInterrupt) process.removeListener('SIGINT', onInterrupt);
  }
  return exitCode ?? 0;
}

interface Hooks {
  named(name: string): void;
  context(ctx: CliContext): void;
  finish(result: CommandResult): void;
  after(run: NonNullable<CommandResult['after']>): Promise<void>;
}

async function parseAndRun(argv: string[], version: string, io: Io, facts: ProcessFacts, interruptHandlers: Set<InterruptHandler>, hooks: Hooks): Promise<void> {
  const unknown = unknownSubcommand(argv, io.cwd);
  if (unknown !== undefined) {
    hooks.named(unknown.group);
    return hooks.finish(unknown.result);
  }
  let ran = false;
  const onRun: OnRun = async (entry, raw, cmd) => {
    ran = true;
    const name = commandName(entry.path);
    hooks.named(name);
    const ctx = makeContext(cmd.optsWithGlobals() as GlobalFlags, version, io, facts, interruptHandlers);
    hooks.context(ctx);
    const parsed = entry.options(raw);
    if (!parsed.ok) return hooks.finish({ outcome: outcomeOf(parsed.diagnostics), json: {}, diagnostics: parsed.diagnostics });
    try {
      const run = await entry.load();
      const result = await run(parsed.options, ctx);
      hooks.finish(result);
      if (result.after && !ctx.json) await hooks.after(result.after);
    } catch (err) {
      hooks.finish(internalError(name, err, ctx));
    }
  };
  let program = buildProgram(version, onRun, namedCommand(argv));
  // Not a command name after all (a typo, `help`): the whole tree, for help and suggestions.
  if (program.commands.length === 0) program = buildProgram(version, onRun);
  let usageText = '';
  const quiet = (cmd: Command) => {
    cmd.exitOverride();
    cmd.configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => (usageText += s) });
    cmd.commands.forEach(quiet);
  };
  quiet(program);

  try {
    await program.parseAsync(argv);
  } catch (err) {
    if (!(err instanceof CommanderError)) throw err;
    if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version') return hooks.finish({ outcome: 'ok', json: {} });
    if (err.code === 'commander.help') {
      // A group called without a subcommand: its help is the answer, but it is still a usage error.
      hooks.named(groupWords(argv) || 'oxo-flow');
      return hooks.finish(missingSubcommand(argv, usageText));
    }
    const message = (usageText || err.message).replace(/^error:\s*/i, '').trim();
    const [first = message, ...rest] = message.split('\n');
    const suggestion = /\(Did you mean (.+?)\?\)/.exec(message)?.[1];
    return hooks.finish({
      outcome: 'usage',
      json: {},
      diagnostics: [diagnostic('CLI001', first, suggestion ? { hint: `did you mean ${suggestion}? (see \`oxo-flow --help\`)` } : {})],
      human: () => rest.filter((line) => !line.startsWith('(Did you mean')).join('\n'),
    });
  }
  if (!ran) {
    program.outputHelp({ error: true });
    hooks.named(groupWords(argv) || 'oxo-flow');
    hooks.finish(missingSubcommand(argv, usageText));
  }
}

/** The words of the command line that are not flags: `ai skills` for `--json ai skills`. */
function groupWords(argv: string[]): string {
  return argv
    .slice(2)
    .filter((a) => !a.startsWith('-'))
    .join(' ');
}

/** `oxo-flow` or `oxo-flow ai skills` alone: the help, as a usage error (exit 2, one JSON document with --json). */
function missingSubcommand(argv: string[], helpText: string): CommandResult {
  const group = GROUPS.find((g) => g.path.join(' ') === groupWords(argv));
  const children = group ? subcommandsOf(group.path) : [...new Set(COMMANDS.map((c) => c.path[0]!))];
  const where = group ? `oxo-flow ${group.path.join(' ')}` : 'oxo-flow';
  return {
    outcome: 'usage',
    json: {},
    diagnostics: [diagnostic('CLI001', `${where} needs a command: ${children.join(', ')}`, { hint: `see \`${where} --help\`` })],
    human: () => helpText,
  };
}

/** The words one level under a group. */
function subcommandsOf(path: readonly string[]): string[] {
  const under = [...COMMANDS, ...GROUPS].filter((e) => e.path.length === path.length + 1 && e.path.slice(0, -1).join(' ') === path.join(' '));
  return [...new Set(under.map((e) => e.path[path.length]!))];
}

/**
 * `oxo-flow ai tool`, `ai skill list`: a word under a group that names none of its commands. Commander
 * would hand it to the group's default command as a workflow argument; unless it is one (an existing
 * path or a `.oxoflow` name), it is an unknown command, with the nearest name suggested.
 */
function unknownSubcommand(argv: string[], cwd: string): { group: string; result: CommandResult } | undefined {
  const args = argv.slice(2);
  let i = 0;
  while (i < args.length && args[i]!.startsWith('-')) i++;
  const path: string[] = [];
  for (; i < args.length; i++) {
    const word = args[i]!;
    if (word.startsWith('-')) return undefined;
    if (path.length > 0) {
      const children = subcommandsOf(path);
      if (!children.includes(word)) {
        const hasDefault = COMMANDS.some((c) => c.isDefault && c.path.slice(0, -1).join(' ') === path.join(' '));
        if (hasDefault && (word.endsWith('.oxoflow') || existsSync(resolvePath(cwd, word)))) return undefined;
        const near = nearestName(word, children);
        const group = path.join(' ');
        return {
          group,
          result: {
            outcome: 'usage',
            json: {},
            diagnostics: [
              diagnostic('CLI001', `unknown command 'oxo-flow ${group} ${word}'`, {
                hint: near !== undefined ? `did you mean \`oxo-flow ${group} ${near}\`? (see \`oxo-flow ${group} --help\`)` : `the commands are: ${children.join(', ')}`,
              }),
            ],
          },
        };
      }
    }
    path.push(word);
    if (!GROUPS.some((g) => g.path.join(' ') === path.join(' '))) return undefined;
  }
  return undefined;
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

/** A bug: exit 1 with CLI030 and the message (the stack with -v), in the same JSON document as every result. */
export function internalError(name: string, err: unknown, ctx: CliContext): CommandResult {
  const e = err instanceof Error ? err : new Error(String(err));
  return {
    outcome: 'failed',
    json: { internal_error: { message: e.message } },
    diagnostics: [
      diagnostic('CLI030', `internal error in \`oxo-flow ${name}\`: ${e.message}. This is a bug, please report it with this output (oxo-flow ${ctx.version}, Node ${process.version}).`),
    ],
    human: () => (ctx.verbose && e.stack ? e.stack : ''),
  };
}
