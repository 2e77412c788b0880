import type { Config } from '../config/index.js';
import type { RunEnded, RunObserver } from '../lifecycle/index.js';
import type { Logger } from '../log/index.js';
import { driftBody, runOutcomeBody, snapshotHeldBody, staleBody, type NotificationBody } from './notification-body.js';
import { hooksOf, Notifier } from './notifier.js';
import { newlyStale } from './stale-episodes.js';

/** Notifications of a run's end: its outcome, drift, newly stale streams and held snapshots. */
export function notifyObserver(
  config: Pick<Config, 'notify' | 'warehouse'>,
  logger: Logger,
  notifier = new Notifier(hooksOf(config), config, logger),
): RunObserver {
  return {
    name: 'notifications',
    async finished(run) {
      const bodies = notificationsOf(run, config, logger);
      if (!notifier.enabled) return;
      await Promise.all(bodies.map((body) => notifier.send(body)));
    },
  };
}

function notificationsOf(run: RunEnded, config: Pick<Config, 'warehouse'>, logger: Logger): NotificationBody[] {
  const bodies: NotificationBody[] = [];
  const outcome = runOutcomeBody(run);
  if (outcome) bodies.push(outcome);
  const drift = driftBody(run);
  if (drift) bodies.push(drift);
  if (run.freshness) {
    // The episode state is kept whether or not a hook listens, so adding one later does not replay old episodes.
    try {
      const stale = newlyStale(config.warehouse.path, run.freshness);
      if (stale.length > 0) bodies.push(staleBody(stale, run));
    } catch (error) {
      logger.warn({ err: error }, 'could not keep the stale streams beside the warehouse');
    }
  }
  if (run.snapshotsHeld && run.snapshotsHeld.length > 0) bodies.push(snapshotHeldBody(run, run.snapshotsHeld));
  return bodies;
}
