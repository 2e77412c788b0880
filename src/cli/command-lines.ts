/**
 * A shell word: unquoted text, backslash escapes and single-quoted parts (the quoting of
 * `shellWord` in check-hints.ts, `'it'\''s'` included) up to the next space outside quotes.
 */
const SHELL_WORD = /(?:\\.|[^\s'\\]+|'[^']*')+/g;

/**
 * A command laid out to `width` for a terminal, each line but the last ending in ` \`, so a copy
 * of the lines still runs as one command; an option stays on the line of its value, and a quoted
 * value stays whole (a backslash-newline inside single quotes would become part of the value).
 */
export function commandLines(command: string, indent: string, width: number | undefined): string[] {
  if (width === undefined || indent.length + command.length <= width) return [`${indent}${command}`];
  const units: string[] = [];
  for (const word of command.match(SHELL_WORD) ?? []) {
    const last = units.at(-1);
    if (last?.startsWith('--') && !last.includes(' ') && !word.startsWith('--')) units[units.length - 1] = `${last} ${word}`;
    else units.push(word);
  }
  const lines: string[] = [];
  let line = indent;
  for (const unit of units) {
    if (line.trim() !== '' && line.length + unit.length + 3 > width) {
      lines.push(`${line} \\`);
      line = `${indent}  ${unit}`;
    } else line = line.trim() === '' ? `${line}${unit}` : `${line} ${unit}`;
  }
  lines.push(line);
  return lines;
}
