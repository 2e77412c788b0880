export { observersFor } from './observers.js';
