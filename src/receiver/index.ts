/** The upsert event receiver (docs/api.md §6; docs/receiver.md): HTTP intake, durable journal, merge into the warehouse. */
export { startReceiver } from './start-receiver.js';
export type { StartReceiverOptions, RunningReceiver, CloseOptions } from './start-receiver.js';
export { mergeJournal } from './merge-journal.js';
export type { MergeJournalOptions } from './merge-journal.js';
export type { MergeResult } from './merge-result.js';
export type { ReceiverStats } from './receiver-stats.js';
export { openForEachMerge, sharedWarehouse, isWarehouseLocked } from './warehouse-access.js';
export type { MergeWarehouse, ClosableWarehouse, OpenWarehouseForMerge, RunExclusive, WarehouseAccess } from './warehouse-access.js';
export { validateEvent } from './validate-event.js';
export type { FieldProblem } from './validate-event.js';
export { UpsertEventBody } from './event-schema.js';
export { EVENTS_PATH } from './intake-handler.js';
export { journalDirOf } from './journal-dir.js';
