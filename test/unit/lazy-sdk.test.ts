import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CLI = fileURLToPath(new URL('../../dist/src/cli.js', import.meta.url));

// A module hook that refuses to resolve the AWS SDK: any command that imports it fails.
const refuseSdk = `data:text/javascript,${encodeURIComponent(`
  import { register } from 'node:module';
  register('data:text/javascript,' + encodeURIComponent(\`
    export async function resolve(specifier, context, next) {
      if (specifier.startsWith('@aws-sdk/')) throw new Error('loaded the AWS SDK: ' + specifier);
      return next(specifier, context);
    }\`));
`)}`;

describe('the AWS SDK', () => {
  // Importing it costs 200-400 ms of start-up; only an s3:// lake needs it.
  it('is not loaded by commands that do not touch an s3:// lake', () => {
    for (const args of [['--version'], ['export', '--help'], ['sql', '--help'], ['report']]) {
      const run = spawnSync(process.execPath, ['--import', refuseSdk, CLI, ...args], { encoding: 'utf8', cwd: fileURLToPath(new URL('.', import.meta.url)) });
      expect(`${run.stdout}${run.stderr}`, args.join(' ')).not.toContain('loaded the AWS SDK');
    }
  });

  it('is refused by the hook when something does import it (the check can fail)', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', refuseSdk, '-e', "import('@aws-sdk/client-s3').catch((e) => { console.error(e.message); process.exit(3); })"],
      {
        encoding: 'utf8',
      },
    );
    expect(run.stderr).toContain('loaded the AWS SDK');
  });
});
