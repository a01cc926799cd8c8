// `oxo-flow completions bash|zsh|fish`: a completion script on stdout, generated from the real
// command tree so that every command, subcommand and flag is covered.
import { bashScript } from '../completions/bash.js';
import { fishScript } from '../completions/fish.js';
import { completionSpec, type CommandSpec } from '../completions/spec.js';
import { MODEL_KINDS } from '../../ai/providers/registry.js';
import { templateNames } from '../../workflow/templates/index.js';
import { zshScript } from '../completions/zsh.js';
import type { CliContext } from '../context.js';
import { buildProgram } from '../main.js';
import type { CommandResult } from '../result.js';

export type Shell = 'bash' | 'zsh' | 'fish';

function completionScript(shell: Shell, version: string): string {
  const specs = withTemplateNames(completionSpec(buildProgram(version, async () => {})));
  switch (shell) {
    case 'bash':
      return bashScript(specs);
    case 'zsh':
      return zshScript(specs);
    case 'fish':
      return fishScript(specs);
  }
}

export async function completions(opts: { shell: Shell }, ctx: CliContext): Promise<CommandResult> {
  const script = completionScript(opts.shell, ctx.version);
  return {
    outcome: 'ok',
    // With --json the script travels inside the one JSON document; otherwise it is the stdout product.
    json: { shell: opts.shell, script },
    stdout: script,
  };
}

/**
 * Template names and provider kinds are data, not commander choices; offer them for `template NAME`,
 * `init -t` and `ai setup --provider` (the kinds from the provider registry).
 */
function withTemplateNames(specs: CommandSpec[]): CommandSpec[] {
  const names = templateNames();
  const flagChoices = (s: CommandSpec, flag: string, choices: readonly string[]) => ({ ...s, flags: s.flags.map((f) => (f.names.includes(flag) ? { ...f, choices: [...choices] } : f)) });
  return specs.map((s) => {
    const key = s.path.join(' ');
    if (key === 'template') return { ...s, argChoices: names };
    if (key === 'init') return flagChoices(s, '--template', names);
    if (key === 'ai setup') return flagChoices(s, '--provider', MODEL_KINDS);
    return s;
  });
}
