import { dirname, join } from 'node:path';
import type { Config } from '../config/index.js';

/** Where accepted events are journaled: `receiver.journalDir`, or `receiver-journal/` beside the warehouse file. */
export function journalDirOf(config: Pick<Config, 'warehouse' | 'receiver'>): string {
  return config.receiver.journalDir ?? join(dirname(config.warehouse.path), 'receiver-journal');
}
