/** Suggests the candidate nearest to `x` (edit distance under half its length), ignoring case and underscores. */
export function nearestName(x: string, candidates: readonly string[]): string | undefined {
  const fold = (s: string) => s.replace(/_/g, "").toLowerCase();
  const fx = fold(x);
  let best: string | undefined;
  let bestDistance = Math.floor((fx.length + 1) / 2);
  for (const c of [...candidates].sort()) {
    const d = levenshtein(fx, fold(c));
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best;
}

function levenshtein(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((prev[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    prev = row;
  }
  return prev[b.length] ?? 0;
}
