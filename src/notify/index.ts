export { notifyObserver } from './notify-observer.js';
export { Notifier, hooksOf } from './notifier.js';
export { journalFullBody, BODY_VERSION } from './notification-body.js';
export type { NotificationBody, JournalFullFacts } from './notification-body.js';
export { readDeliveries, deliveryLogPath } from './delivery-log.js';
export type { DeliveryRecord } from './delivery-log.js';
export { deliver } from './deliver.js';
