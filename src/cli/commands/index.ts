import type { Command } from '../command.js';
import { configCommand } from './config.js';
import { demoCommand } from './demo.js';
import { jobsCommand } from './jobs.js';
import { mergeEventsCommand } from './merge-events.js';
import { serveCommand } from './serve.js';
import { syncCommand } from './sync.js';
import { backfillCommand } from './backfill.js';
import { simulateCommand } from './simulate.js';
import { exportCommand } from './export.js';
import { sqlCommand } from './sql.js';
import { reportCommand } from './report.js';
import { checkCommand } from './check.js';
import { statusCommand } from './status.js';
import { dashboardCommand } from './dashboard.js';
import { resetCommand } from './reset.js';
import { completionCommand } from './completion.js';
import { initCommand } from './init.js';

/** Every command the CLI offers, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [
  demoCommand,
  syncCommand,
  backfillCommand,
  configCommand,
  simulateCommand,
  exportCommand,
  sqlCommand,
  reportCommand,
  checkCommand,
  statusCommand,
  dashboardCommand,
  jobsCommand,
  serveCommand,
  mergeEventsCommand,
  resetCommand,
  initCommand,
  completionCommand(() => COMMANDS),
];
