/**
 * Spelling suggestions, as go.starlark.net's internal/spell: the candidate nearest to a name
 * by edit distance, ignoring case and underscores, within half the name's length.
 */

/** The candidate nearest to `x` (first of equals, in the order given), or undefined. */
export function nearest(x: string, candidates: readonly string[]): string | undefined {
  const fx = fold(x);
  let best: string | undefined;
  let bestDistance = Math.floor((fx.length + 1) / 2); // allow up to 50% typos
  for (const c of candidates) {
    const d = levenshtein(fx, fold(c));
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best;
}

function fold(s: string): string {
  return s.replace(/_/g, "").toLowerCase();
}

function levenshtein(a: string, b: string): number {
  const prev = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0] as number;
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = prev[j] as number;
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      prev[j] = Math.min(above + 1, (prev[j - 1] as number) + 1, diag + cost);
      diag = above;
    }
  }
  return prev[b.length] as number;
}
