/** Exit status of the CLI (docs/commands.md, "Exit status"): 0 ok, 1 run failed, 2 usage or config, 3 partial. */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  partial: 3,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
