export { observersFor } from './observers.js';
export { startServeOps } from './serve-ops.js';
export type { ServeOps } from './serve-ops.js';
export { observeTask } from './observe-task.js';
export type { TaskProgress, TaskSummary } from './observe-task.js';
