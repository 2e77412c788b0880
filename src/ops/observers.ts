import type { Config } from '../config/index.js';
import type { RunObserver } from '../lifecycle/index.js';
import type { Logger } from '../log/index.js';

/** The observers a batch command's run gets from the config. */
export function observersFor(_config: Pick<Config, 'warehouse'>, _logger: Logger): RunObserver[] {
  return [];
}
