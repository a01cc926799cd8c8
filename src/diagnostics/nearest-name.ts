// "Did you mean ...?" suggestions: the closest known name by edit distance.

/** Levenshtein distance, stopping early once it exceeds `limit` (keeps long names cheap). */
function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i += 1) {
    const cur = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j += 1) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      cur.push(v);
      if (v < rowMin) rowMin = v;
    }
    if (rowMin > limit) return limit + 1;
    prev = cur;
  }
  return prev[b.length]!;
}

/**
 * The known name closest to `name`, if it is close enough to be a likely typo: 1 edit for names of
 * up to 3 characters, 2 up to 8, else 3; case and `-`/`_` differences are ignored.
 */
export function nearestName(name: string, known: Iterable<string>): string | undefined {
  const norm = (s: string) => s.toLowerCase().replace(/-/g, '_');
  const target = norm(name);
  const limit = name.length <= 3 ? 1 : name.length <= 8 ? 2 : 3;
  let best: string | undefined;
  let bestDistance = limit + 1;
  for (const candidate of known) {
    const d = editDistance(target, norm(candidate), bestDistance - 1 < limit ? bestDistance : limit);
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}
