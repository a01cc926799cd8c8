// What a run shows while it goes: on a terminal one progress line, rewritten in place (done, running,
// failed, left, elapsed); otherwise one line per job event, which reads well in a CI log.
import type { RunEvent } from '../run/events.js';
import type { Style } from './style.js';
import { terminalSafe } from './terminal-safe.js';

export interface Progress {
  event(e: RunEvent): void;
  /** Clear the live line before the summary is printed. */
  close(): void;
}

export function makeProgress(total: number, out: NodeJS.WritableStream, options: { tty: boolean; quiet: boolean; style: Style; now?: () => number }): Progress {
  const now = options.now ?? Date.now;
  const start = now();
  let done = 0;
  let failed = 0;
  let running = 0;
  const elapsed = () => clock((now() - start) / 1000);
  if (options.quiet) return { event: () => {}, close: () => {} };
  if (!options.tty) {
    return {
      event(e) {
        const line = eventLine(e, options.style);
        if (line !== undefined) out.write(`[${elapsed()}] ${line}\n`);
      },
      close() {},
    };
  }
  const draw = () => {
    const left = Math.max(0, total - done - failed - running);
    out.write(`\r\x1b[K${options.style.bold('run:')} ${options.style.green(`${done} done`)} · ${running} running · ${failed > 0 ? options.style.red(`${failed} failed`) : '0 failed'} · ${left} left · ${elapsed()}`);
  };
  const timer = setInterval(draw, 500);
  timer.unref();
  draw();
  return {
    event(e) {
      if (e.kind === 'spawned' || e.kind === 'exited') return;
      if (e.kind === 'start' || e.kind === 'submitted') running += 1;
      else if (e.kind === 'done') (running -= 1), (done += 1);
      else if (e.kind === 'failed') {
        running = Math.max(0, running - 1);
        failed += 1;
        // Failures are worth a line of their own above the progress line.
        out.write(`\r\x1b[K${eventLine(e, options.style)}\n`);
      } else if (e.kind === 'blocked') failed += 1;
      else if (e.kind === 'note') out.write(`\r\x1b[K${eventLine(e, options.style)}\n`);
      draw();
    },
    close() {
      clearInterval(timer);
      out.write('\r\x1b[K');
    },
  };
}

function eventLine(e: RunEvent, style: Style): string | undefined {
  switch (e.kind) {
    case 'start':
      return `start   ${terminalSafe(e.id)}${e.attempts > 1 ? style.dim(` (attempt 1 of ${e.attempts})`) : ''}`;
    case 'retry':
      return style.yellow(`retry   ${terminalSafe(e.id)} (attempt ${e.attempt} of ${e.attempts}; last: ${terminalSafe(e.message)})`);
    case 'done':
      return style.green(`done    ${terminalSafe(e.id)}`) + style.dim(` (${e.seconds.toFixed(1)}s)`);
    case 'failed':
      return style.red(`failed  ${terminalSafe(e.id)}: ${terminalSafe(e.message)}`) + style.dim(` (log: ${terminalSafe(e.log)})`);
    case 'blocked':
      return style.yellow(`blocked ${terminalSafe(e.id)}`) + style.dim(` (needs ${terminalSafe(e.blockedBy)}, which failed)`);
    case 'submitted':
      return `${e.adopted ? 'adopted' : 'submit '} ${terminalSafe(e.id)}` + style.dim(` (Slurm job ${e.slurmJobId})`);
    case 'note':
      return style.dim(terminalSafe(e.message));
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
