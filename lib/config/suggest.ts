/**
 * "Did you mean": the allowed word a typo most likely meant (`nodeprot` -> `nodeport`,
 * `datapth` -> `datapath`), for config messages.
 */

/**
 * Edits between two words: insertions, deletions, substitutions and swaps of two neighbouring
 * letters, each counting one (the optimal string alignment distance), ignoring case.
 */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => Array.from({ length: t.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[s.length][t.length];
}

/**
 * The candidate `input` most likely misspells: the nearest by {@link editDistance}, if it is at most
 * a third of the longer word's length away (at least one edit; the first candidate wins a tie);
 * otherwise undefined, so an unrelated word gets no suggestion.
 */
export function closestMatch(input: string, candidates: readonly string[]): string | undefined {
  let best: { word: string; distance: number } | undefined;
  for (const word of candidates) {
    const distance = editDistance(input, word);
    if (distance <= Math.max(1, Math.floor(Math.max(input.length, word.length) / 3)) && (best === undefined || distance < best.distance)) best = { word, distance };
  }
  return best?.word;
}

/** ` did you mean "x"?` or nothing, to put after a message's first clause. */
export function didYouMean(input: unknown, candidates: readonly string[]): string | undefined {
  if (typeof input !== 'string') return undefined;
  const match = closestMatch(input, candidates);
  return match === undefined || match === input ? undefined : `did you mean "${match}"?`;
}
