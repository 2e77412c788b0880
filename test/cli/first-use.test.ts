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

describe('a mistyped option', () => {
  it('is refused with the closest option of the command, not with Node’s advice about `--`', async () => {
    const typo = await runCli(['sync', '--venus', 'x']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('unknown option "--venus" for sync; did you mean "--venues"?');
    expect(typo.stderr).not.toContain('positional argument');
    const withValue = await runCli(['backfill', '--dry-rnu=1']);
    expect(withValue.stderr).toContain('unknown option "--dry-rnu" for backfill; did you mean "--dry-run"?');
    const missing = await runCli(['backfill', '--from']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--from needs a value (DATE)');
    const extra = await runCli(['backfill', '--force=yes']);
    expect(extra.stderr).toContain('--force takes no value');
  });
});

describe('a mistyped report name', () => {
  it('is refused with the closest report', async () => {
    const typo = await runCli(['report', 'daily-login']);
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('no report named "daily-login"; did you mean "daily-logins"?');
  });
});
