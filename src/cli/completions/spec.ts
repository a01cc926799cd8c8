// What a shell needs to complete `oxo-flow`: the command tree with each level's flags, read from
// the real commander program so completions can never drift from the CLI.
import type { Command } from 'commander';

export interface FlagSpec {
  /** `--target`, `-t` */
  names: string[];
  description: string;
  takesValue: boolean;
  choices?: string[];
}

export interface CommandSpec {
  /** Words after `oxo-flow`, e.g. ['ai', 'skills', 'list']; [] for the program itself. */
  path: string[];
  description: string;
  subcommands: { name: string; description: string }[];
  /** Flags of this level only; global flags sit on the root. */
  flags: FlagSpec[];
  /** Allowed values of the first positional argument, when commander restricts them. */
  argChoices?: string[];
  /** True when the command takes positional arguments (completed as files unless argChoices). */
  takesArguments: boolean;
}

export function completionSpec(program: Command): CommandSpec[] {
  const out: CommandSpec[] = [];
  const visit = (cmd: Command, path: string[]): void => {
    const flags: FlagSpec[] = cmd.options
      .filter((o) => !o.hidden)
      .map((o) => {
        const flag: FlagSpec = {
          names: [o.long, o.short].filter((n): n is string => typeof n === 'string'),
          description: o.description,
          takesValue: o.required || o.optional,
        };
        if (o.argChoices) flag.choices = [...o.argChoices];
        return flag;
      });
    flags.push({ names: ['--help', '-h'], description: 'show help', takesValue: false });
    const args = cmd.registeredArguments;
    const spec: CommandSpec = {
      path,
      description: cmd.description(),
      subcommands: cmd.commands.map((c) => ({ name: c.name(), description: c.description() })),
      flags,
      takesArguments: args.length > 0,
    };
    const choices = args[0]?.argChoices;
    if (choices) spec.argChoices = [...choices];
    out.push(spec);
    for (const sub of cmd.commands) visit(sub, [...path, sub.name()]);
  };
  visit(program, []);
  return out;
}
