// The one place that writes a command's result and decides the exit code.
import { countBySeverity, sortDiagnostics } from '../diagnostics/diagnostic.js';
import type { CliContext } from './context.js';
import { renderDiagnostics } from './render-diagnostics.js';
import { writeJsonDocument } from './json-stream.js';
import { exitCodeFor, jsonFields, type CommandResult } from './result.js';
import type { TextSink } from './std-streams.js';
import type { Style } from './style.js';
import { redactSecrets } from '../ai/secrets.js';
import { terminalSafe, terminalSafeStyled } from './terminal-safe.js';

const JSON_SCHEMA_VERSION = 1;

export interface Streams {
  stdout: TextSink;
  stderr: TextSink;
}

/** Write the result (JSON on stdout, or human text on stderr) and return the exit code. */
export function emitResult(command: string, result: CommandResult, ctx: CliContext, streams: Streams, style: Style): number {
  const exitCode = exitCodeFor(result.outcome);
  const diagnostics = sortDiagnostics(result.diagnostics ?? []);
  if (ctx.json) {
    const doc = {
      schema_version: JSON_SCHEMA_VERSION,
      command,
      ok: result.outcome === 'ok',
      exit_code: exitCode,
      ...jsonFields(result),
      diagnostics,
      counts: countBySeverity(diagnostics),
    };
    // Inside JSON a secret appears in its escaped form; `***` needs no escaping.
    const jsonSecrets = [...ctx.secrets].map((s) => JSON.stringify(s).slice(1, -1));
    // Written as it is made: a long list (dry-run's jobs) is a StreamedArray (json-stream.ts).
    writeJsonDocument(doc, streams.stdout, jsonSecrets.length === 0 ? (t) => t : (t) => redactSecrets(t, jsonSecrets));
    return exitCode;
  }
  const secrets = [...ctx.secrets];
  // The renderers escape untrusted fields; this is the last guard for anything they missed.
  const guard = (text: string) => redactSecrets(ctx.color ? terminalSafeStyled(text) : terminalSafe(text), secrets);
  const shown = ctx.quiet ? diagnostics.filter((d) => d.severity === 'error') : diagnostics;
  if (shown.length > 0) streams.stderr.write(`${guard(renderDiagnostics(shown, style, ctx.cwd))}\n`);
  const human = ctx.quiet && result.outcome === 'ok' ? result.quietHuman : result.human;
  if (human) {
    const text = human(style);
    if (text) streams.stderr.write(guard(text.endsWith('\n') ? text : `${text}\n`));
  }
  if (result.stdout !== undefined) streams.stdout.write(redactSecrets(terminalSafe(result.stdout), secrets));
  return exitCode;
}
