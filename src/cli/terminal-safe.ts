// Text that came from outside (workflow, rule, sample and skill names, directory names, MCP tool names,
// titles and error messages, tool results) may carry escape sequences that move the cursor, clear the
// screen, set the window title or reorder what is displayed. Before such text reaches a terminal, every
// control and bidi-control character is replaced by a visible escape (`\x1b`, `\u202e`), so the user
// sees what is there instead of what it does. JSON output keeps the exact text; only human renderers
// call this.

// C0 controls except tab and newline, DEL, C1 controls, and the bidi controls (LRM, RLM, ALM,
// embeddings/overrides U+202A-202E, isolates U+2066-2069).
const UNSAFE = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
// The same plus tab and newline, for text shown on one line.
const UNSAFE_IN_LINE = /[\u0000-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

function visible(ch: string): string {
  const code = ch.charCodeAt(0);
  if (ch === '\n') return '\\n';
  if (ch === '\t') return '\\t';
  if (ch === '\r') return '\\r';
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/** Untrusted text made safe for a terminal; newlines and tabs are kept (multi-line text such as tool results). */
export function terminalSafe(text: string): string {
  // Nearly every text is clean: a search (no allocation) before the replace with a function, which is
  // many times slower even when nothing matches (a run's log formats a few lines per job through here).
  return text.search(UNSAFE) < 0 ? text : text.replace(UNSAFE, visible);
}

/** Untrusted text made safe for one line of a terminal: newlines and tabs become `\n` and `\t` too. */
export function terminalSafeLine(text: string): string {
  return text.replace(UNSAFE_IN_LINE, visible);
}

/** True when the text holds something a terminal would act on or reorder (a raw escape, C1 or bidi control). */
export function hasTerminalControls(text: string): boolean {
  UNSAFE.lastIndex = 0;
  return UNSAFE.test(text);
}

// Our own colour: Select Graphic Rendition sequences only (`ESC [ 1;31 m`), as chalk writes them.
const SGR_OR_UNSAFE = /(\u001b\[[0-9;]*m)|[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;

/**
 * For finished human output that was coloured by our own style: colour sequences stay, every other
 * control is made visible. A last line of defence behind the renderers, which escape untrusted fields
 * themselves (a colour sequence inside a name would survive this one).
 */
export function terminalSafeStyled(text: string): string {
  return text.replace(SGR_OR_UNSAFE, (m, sgr: string | undefined) => sgr ?? visible(m));
}
