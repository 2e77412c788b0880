/**
 * A reader that closes stdout ends a command quietly (exit 0); an EPIPE from anything else — a
 * socket to the lake or a webhook — is still a failure, said on stderr. In process, through
 * runCli, with a command that fails as each case does.
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ExitCode } from '../../src/errors/index.js';
import { runCli } from '../../src/cli/main.js';
import type { Command } from '../../src/cli/command.js';
import { markOutputClosed, writePiece } from '../../src/infra/write-piece.js';

function brokenPipe(): NodeJS.ErrnoException {
  return Object.assign(new Error('write EPIPE'), { code: 'EPIPE', syscall: 'write' });
}

/** A command that writes a piece to stdout after `before` has run. */
function writer(before: (stdout: NodeJS.WritableStream) => void): Command {
  return {
    name: 'write',
    summary: 'writes',
    options: {},
    noConfig: true,
    async run(_args, io) {
      before(io.stdout);
      await writePiece(io.stdout, 'a row\n');
      return ExitCode.ok;
    },
  };
}

async function run(command: Command): Promise<{ code: ExitCode; stderr: string }> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  stdout.resume();
  let text = '';
  stderr.on('data', (chunk: Buffer) => {
    text += chunk.toString();
  });
  const code = await runCli(['write'], { stdout, stderr, env: {}, signal: new AbortController().signal }, [command]);
  return { code, stderr: text };
}

describe('a closed output', () => {
  it('whose reader is gone ends the command with exit 0 and nothing on stderr', async () => {
    const { code, stderr } = await run(writer((stdout) => markOutputClosed(stdout)));
    expect(stderr).toBe('');
    expect(code).toBe(ExitCode.ok);
  });

  it('is not any EPIPE: one from elsewhere while stdout is open fails the command, said on stderr', async () => {
    const failing: Command = { ...writer(() => undefined), run: async () => Promise.reject(brokenPipe()) };
    const { code, stderr } = await run(failing);
    expect(stderr).toContain('EPIPE');
    expect(code).toBe(ExitCode.failed);
  });
});
