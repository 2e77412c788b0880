import type { Config } from '../config/index.js';
import type { RunObserver } from '../lifecycle/index.js';
import type { Logger } from '../log/index.js';
import { notifyObserver } from '../notify/index.js';
import { runStateObserver } from '../run-state/index.js';
import { pushObserver } from '../metrics/index.js';
import { lineageObserver } from '../lineage/index.js';

/** The parts of the config the observers read; `notify` is absent for the read-side commands (export). */
export type ObservedConfig = Pick<Config, 'warehouse' | 'metrics' | 'lineage'> & { readonly notify?: Config['notify'] };

/**
 * The observers a batch command's run gets from the config: the run-state file always, the
 * notifications (and the stale-stream episodes) when the command read the `notify` block, the
 * metrics push when `metrics.pushgateway` is set, lineage when `lineage.url` is.
 */
export function observersFor(config: ObservedConfig, logger: Logger): RunObserver[] {
  const observers: RunObserver[] = [runStateObserver(logger)];
  if (config.notify) observers.push(notifyObserver({ notify: config.notify, warehouse: config.warehouse }, logger));
  const push = pushObserver(config, logger);
  if (push) observers.push(push);
  observers.push(...lineageObserver(config, logger));
  return observers;
}
