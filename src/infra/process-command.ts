import { readFileSync } from 'node:fs';
import { basename } from 'node:path';

/**
 * What a process runs, for a message about it: `venue-etl sql` for the CLI (its script and the
 * command after it), else its program's name. Read from /proc (Linux): nothing is written by
 * the holder for it, so a read command that holds the warehouse is named as well as a writer.
 * Undefined where /proc is absent or the process is gone.
 */
export function processCommand(pid: number): string | undefined {
  let argv: string[];
  try {
    argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
  if (argv.length === 0) return undefined;
  const script = argv.findIndex((arg) => /(?:^|[\\/])(?:cli\.js|venue-etl)$/.test(arg));
  if (script >= 0) {
    const command = argv.slice(script + 1).find((arg) => !arg.startsWith('-'));
    return command === undefined ? 'venue-etl' : `venue-etl ${command}`;
  }
  return basename(argv[0] ?? '');
}
