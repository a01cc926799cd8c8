// W008: a command that runs in whatever environment the machine has. W016: a conda/mamba/pixi
// environment file that is not a lock file, reported once per file (the reference repeated it for
// every rule, which buried everything else).
import { diagnostic } from '../../diagnostics/diagnostic.js';
import type { LintContext } from './context.js';

const LOCKED = /(\.lock|\.lock\.ya?ml|-lock\.ya?ml|\.lock\.toml)$/i;

export function lintRuleEnvironment({ workflow: w, loc, out }: LintContext): void {
  const seen = new Set<string>();
  for (const rule of w.rules) {
    const env = rule.environment ?? w.defaults.environment;
    const runs = rule.shell !== undefined || rule.script !== undefined || rule.transform?.map !== undefined;
    if (!env) {
      if (runs) out.push(diagnostic('W008', `rule "${rule.name}" declares no environment and runs with the tools on PATH`, loc.at(['rules', rule.index, 'name'], rule.name)));
      continue;
    }
    if (!rule.environment) continue; // a [defaults] environment is reported at its own line below
    if ((env.kind === 'conda' || env.kind === 'mamba' || env.kind === 'pixi') && typeof env.spec === 'string' && !LOCKED.test(env.spec)) {
      if (seen.has(env.spec)) continue;
      seen.add(env.spec);
      out.push(diagnostic('W016', `${env.kind} environment "${env.spec}" is not a lock file (first used by rule "${rule.name}")`, loc.at(['rules', rule.index, 'environment', env.kind], rule.name)));
    }
  }
  const d = w.defaults.environment;
  if (d && (d.kind === 'conda' || d.kind === 'mamba' || d.kind === 'pixi') && typeof d.spec === 'string' && !LOCKED.test(d.spec) && !seen.has(d.spec)) {
    out.push(diagnostic('W016', `${d.kind} environment "${d.spec}" in [defaults] is not a lock file`, loc.at(['defaults', 'environment', d.kind])));
  }
}
