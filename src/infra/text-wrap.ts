/** Splits text into lines of at most `width`, at a space or after one of `breakAfter` (`,`/`/`/`-`) when one is near. */
export function wrap(text: string, width: number, breakAfter = ',/-'): string[] {
  if (text.length <= width) return [text];
  const lines: string[] = [];
  let rest = text;
  while (rest.length > width) {
    let at = width;
    for (let index = width; index > width / 2; index--) {
      if (rest[index] === ' ' || breakAfter.includes(rest[index - 1])) {
        at = index;
        break;
      }
    }
    lines.push(rest.slice(0, at).trimEnd());
    rest = rest.slice(at).trimStart();
  }
  if (rest.length > 0) lines.push(rest);
  return lines;
}

/** Every line of `text` wrapped to `width` (unchanged when no width is known: a pipe). */
export function fitLines(text: string, width: number | undefined): string {
  if (width === undefined) return text;
  return text
    .split('\n')
    .map((line) => wrap(line, width).join('\n'))
    .join('\n');
}

/**
 * `prefix` then `text`, continued under the text's first column when it wraps
 * ("nightly-sync   15 2 * * *   Runs the…" / "                             …rest").
 */
export function hanging(prefix: string, text: string, width: number | undefined): string {
  if (width === undefined) return `${prefix}${text}`.trimEnd();
  const room = width - prefix.length;
  // Too little room beside the prefix: the text goes below it, at full width.
  if (room < 20) return [prefix.trimEnd(), ...wrap(text, width)].join('\n');
  return wrap(text, room)
    .map((line, index) => `${index === 0 ? prefix : ' '.repeat(prefix.length)}${line}`.trimEnd())
    .join('\n');
}
