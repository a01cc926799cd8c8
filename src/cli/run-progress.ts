// What a run shows while it goes. On a terminal: a block redrawn in place, a status line (done,
// running, failed, left, total time) and one line per running job (its id, which names the rule and
// the sample, and how long it has run); every line is cut to the terminal's width, so nothing wraps
// and the block never scrolls, at any width from 20 columns up. Failures and notes are printed above
// the block. Without a terminal: one line per job event, which reads well in a CI log.
import type { RunEvent } from '../run/events.js';
import type { Style } from './style.js';
import { terminalSafe } from './terminal-safe.js';

export interface Progress {
  event(e: RunEvent): void;
  /** Clear the live block before the summary is printed. */
  close(): void;
}

export interface ProgressOptions {
  tty: boolean;
  quiet: boolean;
  style: Style;
  now?: () => number;
  /** The terminal's width now (asked at every redraw: terminals get resized). */
  columns?: () => number;
  /** Running jobs listed at most (the rest are counted). */
  maxJobLines?: number;
  /**
   * Hides secrets (values of `sensitive = true` config keys) in every text shown. Job ids and
   * messages carry wildcard values and paths, which can be built from such a value; it is applied
   * before a line is cut to the terminal's width, so no prefix of a secret is left either.
   */
  mask?: (text: string) => string;
}

export function makeProgress(total: number, out: NodeJS.WritableStream, options: ProgressOptions): Progress {
  const now = options.now ?? Date.now;
  const mask = options.mask ?? ((t: string) => t);
  const shown = (text: string) => mask(terminalSafe(text));
  const start = now();
  let done = 0;
  let failed = 0;
  const running = new Map<string, number>();
  const elapsed = () => clock((now() - start) / 1000);
  if (options.quiet) return { event: () => {}, close: () => {} };
  if (!options.tty) {
    return {
      event(e) {
        const line = eventLine(e, options.style, shown);
        if (line !== undefined) out.write(`[${elapsed()}] ${line}\n`);
      },
      close() {},
    };
  }
  const style = options.style;
  const maxJobs = options.maxJobLines ?? 6;
  let drawn = 0; // Lines of the block on screen; the cursor sits at the start of its last line.
  let last = 0;
  let pending: NodeJS.Timeout | undefined;
  const width = () => Math.max(20, options.columns?.() ?? 80);
  const erase = () => {
    let s = '\r';
    if (drawn > 1) s += `\x1b[${drawn - 1}A`;
    out.write(`${s}\x1b[J`);
    drawn = 0;
  };
  const draw = () => {
    last = now();
    const cols = width() - 1; // Never the last column: some terminals wrap as soon as it is written.
    const left = Math.max(0, total - done - failed - running.size);
    const t = elapsed();
    const full = `run: ${done} done · ${running.size} running · ${failed} failed · ${left} left · ${t}`;
    const mid = `${done} done ${running.size} run ${failed} fail ${left} left ${t}`;
    const narrow = `${done}/${total} ${failed}✗ ${running.size}▶ ${t}`;
    const head = [full, mid, narrow].find((h) => len(h) <= cols) ?? narrow;
    const lines = [failed > 0 ? style.red(cut(head, cols)) : style.bold(cut(head, cols))];
    const jobs = [...running.entries()];
    const listed = jobs.length > maxJobs ? maxJobs - 1 : jobs.length;
    for (const [id, since] of jobs.slice(0, listed)) {
      const time = ` ${clock((now() - since) / 1000)}`;
      const room = cols - 2 - len(time);
      const name = room >= 4 ? cut(shown(id), room) : '';
      lines.push(style.dim(cut(`  ${name}${time}`, cols)));
    }
    if (jobs.length > listed) lines.push(style.dim(cut(`  … and ${jobs.length - listed} more`, cols)));
    let s = '\r';
    if (drawn > 1) s += `\x1b[${drawn - 1}A`;
    s += lines.map((l) => `\x1b[K${l}`).join('\n');
    s += '\x1b[J';
    out.write(s);
    drawn = lines.length;
  };
  // Many events in a burst (thousands of short jobs) redraw at most ten times a second.
  const soon = () => {
    if (pending !== undefined) return;
    const wait = Math.max(0, 100 - (now() - last));
    pending = setTimeout(() => {
      pending = undefined;
      draw();
    }, wait);
    pending.unref();
  };
  const timer = setInterval(draw, 500);
  timer.unref();
  draw();
  return {
    event(e) {
      if (e.kind === 'spawned' || e.kind === 'exited') return;
      if (e.kind === 'start') running.set(e.id, now());
      else if (e.kind === 'done') {
        running.delete(e.id);
        done += 1;
      } else if (e.kind === 'failed' || e.kind === 'note') {
        if (e.kind === 'failed') {
          running.delete(e.id);
          failed += 1;
        }
        // Worth a line of their own above the block.
        erase();
        out.write(`${eventLine(e, style, shown)}\n`);
        draw();
        return;
      } else if (e.kind === 'blocked') failed += 1;
      soon();
    },
    close() {
      clearInterval(timer);
      if (pending !== undefined) clearTimeout(pending);
      erase();
    },
  };
}

/** Visible length in code points (terminal-safe text has no controls left). */
function len(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

function cut(s: string, cols: number): string {
  if (len(s) <= cols) return s;
  if (cols <= 1) return '…'.slice(0, cols);
  return `${Array.from(s).slice(0, cols - 1).join('')}…`;
}

function eventLine(e: RunEvent, style: Style, shown: (text: string) => string): string | undefined {
  switch (e.kind) {
    case 'start':
      return `start   ${shown(e.id)}${e.attempts > 1 ? style.dim(` (attempt 1 of ${e.attempts})`) : ''}`;
    case 'retry':
      return style.yellow(`retry   ${shown(e.id)} (attempt ${e.attempt} of ${e.attempts}; last: ${shown(e.message)})`);
    case 'done':
      return style.green(`done    ${shown(e.id)}`) + style.dim(` (${e.seconds.toFixed(1)}s)`);
    case 'failed':
      return style.red(`failed  ${shown(e.id)}: ${shown(e.message)}`) + style.dim(` (log: ${shown(e.log)})`);
    case 'blocked':
      return style.yellow(`blocked ${shown(e.id)}`) + style.dim(` (needs ${shown(e.blockedBy)}, which failed)`);
    case 'submitted':
      return `${e.adopted ? 'adopted' : 'submit '} ${shown(e.id)}` + style.dim(` (cluster job ${e.slurmJobId})`);
    case 'note':
      return style.dim(shown(e.message));
    case 'spawned':
    case 'exited':
      // Measurement events: the run record uses them, the terminal does not.
      return undefined;
  }
}

function clock(seconds: number): string {
  const s = Math.floor(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}
