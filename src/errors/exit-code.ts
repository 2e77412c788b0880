/**
 * Exit status of the CLI (docs/commands.md, "Exit status"): 0 ok, 1 run failed, 2 usage or config,
 * 3 partial; 130 (128 + SIGINT, the shell's convention) for a query stopped by SIGINT/SIGTERM
 * (docs/lake.md, "Read limits").
 */
export const ExitCode = {
  ok: 0,
  failed: 1,
  usage: 2,
  partial: 3,
  interrupted: 130,
} as const;
export type ExitCode = (typeof ExitCode)[keyof typeof ExitCode];
