import type { Command } from '../command.js';
import { configCommand } from './config.js';
import { simulateCommand } from './simulate.js';

/** Every command the CLI offers, in the order `--help` lists them. */
export const COMMANDS: readonly Command[] = [
  configCommand,
  simulateCommand,
];
