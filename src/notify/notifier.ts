import type { Config, NotifyEvent } from '../config/index.js';
import type { Logger } from '../log/index.js';
import { deliver } from './deliver.js';
import { recordDelivery } from './delivery-log.js';
import type { NotificationBody } from './notification-body.js';
import { slackBody } from './slack-format.js';

export interface Hook {
  readonly name: string;
  readonly url: string;
  readonly events: readonly NotifyEvent[];
  readonly format: 'slack' | 'json';
}

/** The configured webhooks, each named (`webhook-1`, … unless named): the name is what logs and `status` show. */
export function hooksOf(config: Pick<Config, 'notify'>): Hook[] {
  return config.notify.webhooks.map((hook, index) => ({ name: hook.name ?? `webhook-${index + 1}`, url: hook.url, events: hook.events, format: hook.format }));
}

/** Sends notifications to the hooks that take their event and records every delivery beside the warehouse. */
export class Notifier {
  constructor(
    private readonly hooks: readonly Hook[],
    private readonly config: Pick<Config, 'notify' | 'warehouse'>,
    private readonly logger: Logger,
  ) {}

  get enabled(): boolean {
    return this.hooks.length > 0;
  }

  wants(event: NotifyEvent): boolean {
    return this.hooks.some((hook) => hook.events.includes(event));
  }

  async send(notification: NotificationBody): Promise<void> {
    const hooks = this.hooks.filter((hook) => hook.events.includes(notification.event));
    await Promise.all(hooks.map((hook) => this.sendTo(hook, notification)));
  }

  private async sendTo(hook: Hook, notification: NotificationBody): Promise<void> {
    const payload = hook.format === 'slack' ? slackBody(notification) : notification;
    const outcome = await deliver(hook.url, payload, { timeoutMs: this.config.notify.timeoutMs, retryForMs: this.config.notify.retryForMs });
    const fields = { event: notification.event, hook: hook.name, attempts: outcome.attempts, status: outcome.status, runId: notification.runId };
    if (outcome.delivered) this.logger.info(fields, 'notification delivered');
    else this.logger.warn({ ...fields, error: outcome.error }, `notification not delivered after ${outcome.attempts} attempts; the run is not affected`);
    try {
      recordDelivery(this.config.warehouse.path, {
        at: new Date().toISOString(),
        event: notification.event,
        hook: hook.name,
        delivered: outcome.delivered,
        attempts: outcome.attempts,
        ...(outcome.status === undefined ? {} : { status: outcome.status }),
        ...(outcome.error === undefined ? {} : { error: outcome.error }),
        ...(notification.runId ? { runId: notification.runId } : {}),
        ...(notification.job ? { job: notification.job } : {}),
      });
    } catch (error) {
      this.logger.warn({ err: error }, 'could not record the delivery of a notification');
    }
  }
}
