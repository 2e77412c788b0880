export { ObjectStore } from './store.js';
export type { LakeObject, ObjectStoreOptions, PartProgress } from './store.js';
export { isS3Target, parseS3Target, keyUnder, describeKey } from './target.js';
export type { S3Target } from './target.js';
export { S3Settings, literalSecretProblems, MIN_PART_BYTES } from './settings.js';
export type { S3SettingsInput } from './settings.js';
export { lakeError } from './errors.js';
