/**
 * What a new user meets in the first minutes, through the built CLI: help, mistyped options and
 * names, config values with a fixed set of choices, options named alike across commands.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../e2e/harness.js';

beforeAll(assertBuilt);

describe('help', () => {
  it('`help sync` prints the help of sync, like `sync --help`; `help snyc` suggests the command', async () => {
    const help = await runCli(['help', 'sync']);
    expect(help.code, help.stderr).toBe(0);
    expect(help.stdout).toBe((await runCli(['sync', '--help'])).stdout);
    expect(help.stdout).toContain('Usage: venue-etl sync ');
    expect((await runCli(['--help', 'backfill'])).stdout).toContain('Usage: venue-etl backfill ');
    const typo = await runCli(['help', 'snyc']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('unknown command "snyc"; did you mean "sync"?');
  });
});
