import { randomBytes } from 'node:crypto';
import { open, readdir } from 'node:fs/promises';

/**
 * Segment files are named `<epoch ms, 15 digits>-<8 hex>.journal`: names sort in creation order
 * and are never reused, so merge progress can be keyed by name alone. The newest segment is
 * the one a running receiver appends to; every older one is sealed.
 *
 * A segment whose refused tail could not be cut off (see `JournalWriter`) is renamed
 * `<epoch ms>-<8 hex>.<N>.journal`: only its first N bytes are ever read.
 */
const SEGMENT_NAME = /^(\d{15})-[0-9a-f]{8}(?:\.(\d{1,15}))?\.journal$/;

export function isSegmentName(name: string): boolean {
  return SEGMENT_NAME.test(name);
}

/** The byte count a cut segment's name limits reading to; undefined for a plain segment. */
export function segmentReadLimit(name: string): number | undefined {
  const limit = SEGMENT_NAME.exec(name)?.[2];
  return limit === undefined ? undefined : Number(limit);
}

/** `<epoch ms>-<8 hex>.<N>.journal` for `<epoch ms>-<8 hex>.journal`. */
export function cutSegmentName(name: string, validBytes: number): string {
  return name.replace(/\.journal$/, `.${validBytes}.journal`);
}

/** Segment names in `dir`, oldest first; none when the folder does not exist. */
export async function listSegments(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names.filter(isSegmentName).sort();
}

/** A name that sorts after every existing one, even when the clock went backwards. */
export function nextSegmentName(existing: readonly string[], nowMs: number): string {
  const newest = existing.length === 0 ? 0 : Number(SEGMENT_NAME.exec(existing[existing.length - 1])?.[1] ?? 0);
  const ms = Math.max(nowMs, newest + 1);
  return `${String(ms).padStart(15, '0')}-${randomBytes(4).toString('hex')}.journal`;
}

/** Makes a created, renamed or deleted entry durable (the file's own fsync does not). */
export async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
