import { rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { Logger } from '../log/index.js';
import type { EventMergeSession } from '../warehouse/index.js';
import { readSegment, type ReadLimits, type SegmentRead } from './journal-reader.js';
import { listSegments, segmentReadLimit } from './journal-segments.js';
import { parseRecord, type JournaledEvent } from './journaled-event.js';
import { mergeBatch, type BatchOutcome } from './merge-batch.js';
import type { MergeResult } from './merge-result.js';
import type { MergeWarehouse } from './warehouse-access.js';

export interface MergeJournalOptions {
  readonly logger?: Logger;
  /** The segment a writer of this process appends to: never deleted, even if not the newest. */
  readonly activeSegment?: string;
  /**
   * No writer appends any more (the caller holds the journal's lock with its writer sealed):
   * the newest segment is sealed too, and deleted once merged.
   */
  readonly allSealed?: boolean;
  /** Checked between transactions: true stops the merge there (status `stopped`). */
  readonly shouldStop?: () => boolean;
  /** Records / bytes per transaction. */
  readonly batchRecords?: number;
  readonly batchBytes?: number;
}

interface Step {
  readonly read: SegmentRead;
  readonly outcome: BatchOutcome;
  readonly invalid: number;
}

/**
 * Merges every journaled record not merged yet into `warehouse` (open for writing), segment by
 * segment, one transaction per batch. Each transaction reads the segment's merged offset,
 * merges the records after it and moves the offset, so the warehouse and its bookkeeping
 * change together: a crash at any point loses nothing and applies nothing twice (and
 * re-merging is harmless anyway: stored event ids are skipped).
 *
 * Sealed segments (all but the newest, which a running receiver may still append to) are
 * deleted once fully merged; one that ends in a torn record is renamed `*.torn` instead and
 * kept for inspection. Throws what the warehouse throws; the journal keeps what was not merged.
 */
export async function mergeJournal(journalDir: string, warehouse: MergeWarehouse, options: MergeJournalOptions = {}): Promise<MergeResult> {
  const started = performance.now();
  const limits: ReadLimits = { maxRecords: options.batchRecords ?? 1000, maxBytes: options.batchBytes ?? 8 * 1024 * 1024 };
  const totals = { records: 0, inserted: 0, duplicates: 0, invalid: 0, batches: 0, segmentsRemoved: 0, segmentsTorn: 0 };
  const segments = await listSegments(journalDir);
  let stopped = false;
  for (const name of segments) {
    const path = join(journalDir, name);
    let stop: SegmentRead['stop'] = 'limit';
    while (stop === 'limit') {
      if (options.shouldStop?.()) {
        stopped = true;
        break;
      }
      const step = await warehouse.mergeEvents((merge) => mergeStep(merge, path, name, limits, options.logger));
      if (step === undefined) break; // deleted by another merger meanwhile
      stop = step.read.stop;
      totals.records += step.read.records.length;
      totals.inserted += step.outcome.inserted;
      totals.duplicates += step.outcome.duplicates;
      totals.invalid += step.invalid;
      if (step.read.records.length > 0) totals.batches += 1;
    }
    if (stopped) break;
    const sealed = options.allSealed === true || (name !== segments[segments.length - 1] && name !== options.activeSegment);
    if (!sealed || stop === 'limit') continue;
    if (stop === 'torn') {
      options.logger?.warn({ segment: name }, 'journal segment ends in a torn record (an unacknowledged write cut by a crash); kept as .torn');
      await rename(path, `${path}.torn`).catch(ignoreMissing);
      totals.segmentsTorn += 1;
    } else {
      await unlink(path).catch(ignoreMissing);
      totals.segmentsRemoved += 1;
    }
    await warehouse.forgetJournalSegment(name);
  }
  const result: MergeResult = { status: stopped ? 'stopped' : 'merged', ...totals, durationMs: Math.round(performance.now() - started) };
  if (result.records > 0) options.logger?.info({ ...result }, 'journal merged into the warehouse');
  return result;
}

async function mergeStep(merge: EventMergeSession, path: string, segment: string, limits: ReadLimits, logger: Logger | undefined): Promise<Step | undefined> {
  const offset = await merge.journalOffset(segment);
  let read: SegmentRead;
  try {
    read = await readSegment(path, offset, limits, segmentReadLimit(segment));
  } catch (error) {
    if (isMissingFile(error)) return undefined;
    throw error;
  }
  const events: JournaledEvent[] = [];
  let invalid = 0;
  for (const [index, record] of read.records.entries()) {
    // Parsing and validating is the merge's main-thread work: let requests in between, so a
    // merge does not hold up the answers to senders.
    if (index % 100 === 99) await yieldToEventLoop();
    const parsed = parseRecord(record);
    if (parsed.ok) {
      events.push(parsed.event);
    } else {
      invalid += 1;
      logger?.error({ segment, offset: record.offset, eventId: parsed.eventId, problems: parsed.problems }, 'journaled event no longer valid; skipped');
    }
  }
  const outcome = events.length > 0 ? await mergeBatch(merge, events) : { inserted: 0, duplicates: 0 };
  if (read.next > offset) await merge.saveJournalOffset(segment, read.next);
  return { read, outcome, invalid };
}

function ignoreMissing(error: unknown): void {
  if (!isMissingFile(error)) throw error;
}

function isMissingFile(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}
