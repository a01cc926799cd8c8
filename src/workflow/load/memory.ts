// Memory amounts: an integer with an optional K/M/G/T (or KB/MB/GB/TB) suffix, any case; a bare
// integer is MB. Everything else (floats, other units, negative numbers) is rejected: E004.

const FACTOR_MB: Record<string, number> = { K: 1 / 1024, M: 1, G: 1024, T: 1024 * 1024 };
const MEMORY = /^\s*(\d+)\s*([KMGT])?B?\s*$/i;

/** 1 PB: no job asks for more, and anything larger is a typo (or would lose integer precision). */
const MAX_MEMORY_MB = 1024 * 1024 * 1024;

export type MemoryParse = { ok: true; mb: number } | { ok: false; message: string };

export function parseMemory(value: string | number): MemoryParse {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && value > 0 && value <= MAX_MEMORY_MB) return { ok: true, mb: value };
    if (Number.isSafeInteger(value) && value > MAX_MEMORY_MB) return { ok: false, message: `memory ${value} MB is more than 1 PB` };
    return { ok: false, message: `memory must be a positive whole number of MB or a text such as "8G", got ${value}` };
  }
  const m = MEMORY.exec(value);
  if (!m || (m[2] === undefined && /B\s*$/i.test(value))) {
    return { ok: false, message: `"${value}" is not a memory amount (expected e.g. "500M", "8G", "1T" or a number of MB)` };
  }
  const amount = Number(m[1]);
  const unit = (m[2] ?? 'M').toUpperCase();
  if (amount <= 0) return { ok: false, message: `memory must be more than zero, got "${value}"` };
  const mb = Math.ceil(amount * FACTOR_MB[unit]!);
  if (!Number.isSafeInteger(mb) || mb > MAX_MEMORY_MB) return { ok: false, message: `memory "${value}" is more than 1 PB` };
  return { ok: true, mb };
}
