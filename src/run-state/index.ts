export { runStateObserver } from './run-state-observer.js';
export { readRunState, runStatePath, writeRunState, RunState } from './run-state-file.js';
export type { FoundRunState } from './run-state-file.js';
export { formatRunState } from './format-run-state.js';
