// `time_limit` as written in a workflow: "90s", "30m", "2h", "1d", combinations like "1h30m", a bare
// number of minutes (as Slurm reads it), or "[D-]HH:MM:SS" / "MM:SS".
const UNITS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };

/** Seconds, or undefined when the text is not a duration. */
export function parseDuration(text: string): number | undefined {
  const t = text.trim().toLowerCase();
  if (/^\d+$/.test(t)) return Number(t) * 60 || undefined;
  if (/^(\d+(?:\.\d+)?[smhd])+$/.test(t)) {
    let total = 0;
    for (const m of t.matchAll(/(\d+(?:\.\d+)?)([smhd])/g)) total += Number(m[1]) * UNITS[m[2]!]!;
    return total > 0 ? Math.ceil(total) : undefined;
  }
  const clock = /^(?:(\d+)-)?(?:(\d+):)?(\d+):(\d+)$/.exec(t);
  if (clock) {
    const [, d = '0', h = '0', m = '0', s = '0'] = clock;
    const total = Number(d) * 86400 + Number(h) * 3600 + Number(m) * 60 + Number(s);
    return total > 0 ? total : undefined;
  }
  return undefined;
}

/** Slurm's `--time` form, whole minutes rounded up (Slurm's own unit). */
export function slurmTime(seconds: number): string {
  return String(Math.max(1, Math.ceil(seconds / 60)));
}
