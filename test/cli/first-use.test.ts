/**
 * What a new user meets in the first minutes, through the built CLI: help, mistyped options and
 * names, config values with a fixed set of choices, options named alike across commands.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runCli } from '../e2e/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'venue-etl-first-use-'));
beforeAll(assertBuilt);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function writeConfig(name: string, document: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, JSON.stringify(document, null, 2));
  return path;
}

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

describe('a config value outside its choices', () => {
  it('lists the choices and the value it got, for a key that also takes a list and for an item of that list', async () => {
    const path = writeConfig('grains.json', { sync: { historyGrain: 'hours', summaryGrain: ['day', 'weeks'] }, log: { level: 'verbose' } });
    const run = await runCli(['config', '--config', path]);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('sync.historyGrain: must be one of "day", "hour" (or a list of them), got "hours"; did you mean "hour"?');
    expect(run.stderr).toContain('sync.summaryGrain[1]: must be one of "day", "month", got "weeks"');
    expect(run.stderr).toContain('log.level: must be one of "fatal", "error", "warn", "info", "debug", "trace", "silent", got "verbose"');
  });
});

describe('--config', () => {
  const withoutConfig = ['demo', 'simulate', 'init', 'completion'];

  // A few CLI runs per test: with a load average of 15 on 2 cores one start of the CLI took 6-9 s.
  it('is listed only by the commands that read a config', async () => {
    const helps = await Promise.all([...withoutConfig, 'status'].map((name) => runCli([name, '--help'])));
    for (const [index, name] of withoutConfig.entries()) {
      const help = helps[index]!;
      expect(help.code, help.stderr).toBe(0);
      expect(help.stdout, name).not.toContain('--config');
      expect(help.stdout, name).toContain('--log-level');
    }
    expect(helps.at(-1)!.stdout).toContain('--config PATH');
  });

  it('is refused by the commands that read none, and not completed for them', async () => {
    const refused = await runCli(['demo', '--config', 'venue-etl.config.json']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('demo reads no config file: leave out --config');
    const bash = (await runCli(['completion', 'bash'])).stdout;
    for (const name of withoutConfig) expect(bash).toMatch(new RegExp(`\\b${name}\\) options="(?![^"]*--config)[^"]*--log-level`));
    expect(bash).toMatch(/\bsync\) options="[^"]*--config/);
  });
});

describe('bash completion', () => {
  it('completes streams (item by item in a list), report names, --format values and the command after help', async () => {
    const script = (await runCli(['completion', 'bash'])).stdout;
    const complete = (words: string): string => {
      const run = spawnSync('bash', ['-c', `${script}\nCOMP_WORDS=(${words}); COMP_CWORD=$((\${#COMP_WORDS[@]} - 1)); _venue_etl; echo "\${COMPREPLY[*]}"`], {
        encoding: 'utf8',
      });
      if (run.error) throw new Error(`bash is needed for this test: ${run.error.message}`);
      expect(run.status, run.stderr).toBe(0);
      return run.stdout.trim();
    };
    expect(complete('venue-etl sync --streams venue-dev')).toBe('venue-devices-history venue-devices-summary');
    expect(complete('venue-etl backfill --streams rating-history,venue-users-h')).toBe('rating-history,venue-users-history');
    expect(complete('venue-etl report daily-l')).toBe('daily-logins');
    expect(complete('venue-etl report peak-hours --format c')).toBe('csv');
    expect(complete("venue-etl status --format ''")).toBe('table json');
    expect(complete('venue-etl backfill --grain h')).toBe('hour');
    expect(complete('venue-etl help ba')).toBe('backfill');
    // Options still complete after a positional.
    expect(complete('venue-etl report daily-logins --fr')).toBe('--from');
  });
});
