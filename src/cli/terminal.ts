import type { CommandIo } from './command.js';

/**
 * Columns available on `stream`: `COLUMNS` from the environment when set (the user's say, and
 * how a script or test asks for a width), else the terminal's width, else undefined (a pipe:
 * nothing to fit). Tables and the progress bar are laid out to it.
 */
export function terminalWidth(stream: NodeJS.WritableStream, env: CommandIo['env']): number | undefined {
  const fromEnv = env.COLUMNS === undefined ? Number.NaN : Number(env.COLUMNS);
  if (Number.isInteger(fromEnv) && fromEnv >= 20) return fromEnv;
  const columns = isTerminal(stream) ? stream.columns : undefined;
  return typeof columns === 'number' && columns > 0 ? columns : undefined;
}

/** stderr when it is a terminal: where a progress bar is drawn (logs would hide it otherwise). */
export function progressTerminal(io: CommandIo): NodeJS.WriteStream | undefined {
  return isTerminal(io.stderr) ? io.stderr : undefined;
}

function isTerminal(stream: NodeJS.WritableStream): stream is NodeJS.WriteStream {
  return 'isTTY' in stream && stream.isTTY === true;
}
