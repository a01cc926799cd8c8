// time_limit: a sum of amounts with s/m/h/d units ("30s", "45m", "2h", "1d", "1h30m"), or a clock
// "MM:SS", "HH:MM:SS", "D-HH:MM:SS" as Slurm writes it. Anything else is E038.

const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };
const SUFFIXED = /^(?:\d+[smhd])+$/i;
const CLOCK = /^(?:(\d+)-)?(?:(\d+):)?(\d+):(\d{1,2})$/;

/** Seconds, or a message saying why the text is not a time limit. */
export function parseTimeLimit(text: string): { ok: true; seconds: number } | { ok: false; message: string } {
  const t = text.trim();
  let seconds: number | undefined;
  if (SUFFIXED.test(t)) {
    seconds = 0;
    for (const m of t.matchAll(/(\d+)([smhd])/gi)) seconds += Number(m[1]) * UNITS[m[2]!.toLowerCase()]!;
  } else {
    const m = CLOCK.exec(t);
    if (m) seconds = Number(m[1] ?? 0) * 86400 + Number(m[2] ?? 0) * 3600 + Number(m[3]) * 60 + Number(m[4]);
  }
  if (seconds === undefined) return { ok: false, message: `"${text}" is not a time limit` };
  if (!Number.isSafeInteger(seconds) || seconds <= 0) return { ok: false, message: `time limit "${text}" must be more than zero and at most a few years` };
  if (seconds > 10 * 365 * 86400) return { ok: false, message: `time limit "${text}" is over ten years` };
  return { ok: true, seconds };
}
