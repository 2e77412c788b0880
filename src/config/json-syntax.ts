/**
 * JSON.parse says where it stopped as a character offset ("at position 94"), which no editor
 * shows; people find line and column. Node 20 gives only the offset, newer Nodes add
 * "(line 5 column 3)": both are replaced by one "line L, column C".
 */
export function describeJsonSyntaxError(text: string, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const position = /at position (\d+)/.exec(message);
  const offset = position ? Number(position[1]) : /end of JSON input/i.test(message) ? text.length : undefined;
  const reason = message
    .replace(/\s*\(line \d+ column \d+\)/, '')
    .replace(/\s*in JSON at position \d+/, '')
    .replace(/^Unexpected end of JSON input$/, 'the text ends before the JSON does');
  if (offset === undefined) return reason;
  const { line, column } = lineAndColumn(text, offset);
  const source = text.split(/\r?\n/)[line - 1] ?? '';
  return `line ${line}, column ${column}: ${reason}\n      ${source.trimEnd().slice(0, 120)}\n      ${' '.repeat(Math.min(column - 1, 120))}^`;
}

/** 1-based line and column of a character offset. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const lineStart = before.lastIndexOf('\n') + 1;
  return { line: before.split('\n').length, column: offset - lineStart + 1 };
}
