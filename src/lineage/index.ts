export { lineageObserver } from './lineage-observer.js';
export { runEvent, lineageRunId, endType } from './run-event.js';
