/**
 * The closest known name to a mistyped one ("snyc" → "sync", "venue-device-history" →
 * "venue-devices-history"), or undefined when nothing is close. Close means an edit distance
 * of at most a third of the longer name (at least 1), or a prefix of a known name.
 */
export function closestName(input: string, known: readonly string[]): string | undefined {
  const typed = input.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed, name.toLowerCase());
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  if (best === undefined) return undefined;
  const allowed = Math.max(1, Math.floor(Math.max(typed.length, best.name.length) / 3));
  if (best.distance <= allowed) return best.name;
  const prefixed = known.filter((name) => typed.length >= 3 && name.toLowerCase().startsWith(typed));
  return prefixed.length === 1 ? prefixed[0] : undefined;
}

/** ` Did you mean "x"?`, or '' when nothing is close: appended to a message. */
export function didYouMean(input: string, known: readonly string[]): string {
  const name = closestName(input, known);
  return name === undefined ? '' : `; did you mean "${name}"?`;
}

/** Damerau–Levenshtein (optimal string alignment): a swapped pair of letters counts once. */
function editDistance(a: string, b: string): number {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const d: number[][] = Array.from({ length: rows }, (_, i) => Array.from({ length: cols }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i < rows; i++) {
    for (let j = 1; j < cols; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, d[i - 2]![j - 2]! + 1);
      d[i]![j] = value;
    }
  }
  return d[a.length]![b.length]!;
}
