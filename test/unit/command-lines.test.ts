import { describe, expect, it } from 'vitest';
import { commandLines } from '../../src/cli/command-lines.js';

const V1 = '11111111-1111-4111-8111-111111111111';

/** The command a shell reads from the lines: each ` \` continuation joins the next line. */
function joined(lines: readonly string[]): string {
  return lines.map((line) => line.replace(/ \\$/, '').trim()).join(' ');
}

describe('a command laid out for a terminal', () => {
  it('stays on one line when it fits, or when no width is known (a pipe)', () => {
    expect(commandLines('venue-etl check series-gaps', '  ', 80)).toEqual(['  venue-etl check series-gaps']);
    expect(commandLines(`venue-etl backfill --venues ${V1} --force`, '  ', undefined)).toEqual([`  venue-etl backfill --venues ${V1} --force`]);
  });

  it('wraps as shell continuations that keep an option with its value', () => {
    const command = `venue-etl backfill --from 2026-01-05 --to 2026-01-06 --streams rating-history,venue-users-history --venues ${V1} --force`;
    const lines = commandLines(command, '    ', 60);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((line) => line.length <= 60)).toBe(true);
    expect(lines.slice(0, -1).every((line) => line.endsWith(' \\'))).toBe(true);
    expect(joined(lines)).toBe(command);
    for (const pair of ['--from 2026-01-05', '--to 2026-01-06', '--streams rating-history,venue-users-history', `--venues ${V1}`]) {
      expect(lines.some((line) => line.includes(pair))).toBe(true);
    }
  });

  it('never breaks a quoted value: a backslash-newline inside single quotes would become part of it', () => {
    const command = "venue-etl check series-gaps --parquet --config 'my venue etl config.json' --format json";
    for (const width of [24, 30, 36, 44, 52]) {
      const lines = commandLines(command, '  ', width);
      expect(joined(lines)).toBe(command);
      expect(lines.some((line) => line.includes("--config 'my venue etl config.json'"))).toBe(true);
    }
    const escaped = `venue-etl check series-gaps --config 'it'\\''s here.json' --parquet`;
    expect(joined(commandLines(escaped, '', 20))).toBe(escaped);
    expect(commandLines(escaped, '', 20).some((line) => line.includes(`--config 'it'\\''s here.json'`))).toBe(true);
  });
});
