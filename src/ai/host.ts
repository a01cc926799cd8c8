// What the AI use cases (review, draft) need from the outside world, passed in by the command
// line (whose CliContext has this shape): the AI layer never reads process.* and never imports
// src/cli. The terminal streams are for the approval prompt only; all other output goes through
// the callbacks each use case takes.
export interface AiHost {
  cwd: string;
  env: Readonly<Record<string, string | undefined>>;
  /** --json: nothing may be written but the document, and no human can be asked. */
  json: boolean;
  stdinIsTTY: boolean;
  stderrIsTTY: boolean;
  stdin: NodeJS.ReadableStream;
  stderr: NodeJS.WritableStream;
  version: string;
  now: () => Date;
  /** Values known to be secret (credential variables, sensitive config): masked in everything shown. */
  secrets: ReadonlySet<string>;
  /** Ctrl-C: register a handler, get back its release. */
  onInterrupt(handler: () => void): () => void;
}
