import { readFileSync } from 'node:fs';
import { UsageError } from '../errors/index.js';
import { stringOption } from './args.js';
import type { CommandIo, ParsedArgs } from './command.js';

/**
 * The text `venue-etl sql` runs: its argument, the standard input for `-`, or the file of
 * `--file F` (a query kept in a file, like those of sql/reports, without shell quoting).
 */
export async function queryText(args: ParsedArgs, io: CommandIo): Promise<string> {
  const file = stringOption(args, 'file');
  const argument = args.positionals[0];
  if (file !== undefined && argument !== undefined) {
    throw new UsageError(`venue-etl sql takes the query once: as an argument, as - (standard input) or with --file, got --file and "${argument}"`);
  }
  const text = file !== undefined ? readQueryFile(file) : argument === '-' ? await readAll(io.stdin ?? process.stdin) : argument;
  if (text === undefined || text.trim() === '') {
    throw new UsageError(
      file !== undefined ? `--file ${file} holds no query` : argument === '-' ? 'the standard input held no query' : 'venue-etl sql needs a query',
      'e.g. venue-etl sql "SELECT stream, count(*) AS n FROM series_points GROUP BY ALL", or --file query.sql, or - to read it from standard input',
    );
  }
  return text;
}

function readQueryFile(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read --file ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      'give the path of a file holding the query',
    );
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
