import { mkdir, open, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log/index.js';
import { encodeRecord, SEGMENT_HEADER } from './journal-format.js';
import { lockJournal, type JournalLock } from './journal-lock.js';
import { fsyncDir, listSegments, nextSegmentName } from './journal-segments.js';
import { journalClosed, journalUnavailable } from './receiver-errors.js';

export interface JournalWriterOptions {
  readonly dir: string;
  /** A write that finds the segment at least this large starts a new one first. */
  readonly maxSegmentBytes?: number;
  readonly logger?: Logger;
}

export interface JournalWriterStats {
  readonly records: number;
  readonly bytes: number;
  /** write + fsync rounds; records / flushes is the group-commit factor. */
  readonly flushes: number;
  readonly failedFlushes: number;
  readonly segment: string | undefined;
}

interface Pending {
  readonly bytes: Buffer;
  readonly resolve: () => void;
  readonly reject: (error: Error) => void;
}

const DEFAULT_MAX_SEGMENT_BYTES = 64 * 1024 * 1024;

/**
 * Appends records and resolves each append only once its bytes are fsynced. Appends that arrive
 * while a write+fsync is running wait for it and then share the next one (group commit), so
 * concurrent senders cost one fsync per round instead of one each.
 *
 * A failed write or fsync leaves the segment's tail unknown (after a failed fsync the page cache
 * cannot be trusted either), so the writer abandons that segment and starts a new one on the
 * next round; the abandoned tail reads as torn and is ignored.
 */
export class JournalWriter {
  private handle: FileHandle | undefined;
  private name: string | undefined;
  private size = 0;
  private queue: Pending[] = [];
  private flushing: Promise<void> | undefined;
  private closed = false;
  private counters = { records: 0, bytes: 0, flushes: 0, failedFlushes: 0 };

  private constructor(
    private readonly dir: string,
    private readonly maxSegmentBytes: number,
    private readonly lock: JournalLock,
    private readonly logger: Logger | undefined,
  ) {}

  /** Takes the folder's writer lock and starts a fresh segment (older ones are sealed from now on). */
  static async open(options: JournalWriterOptions): Promise<JournalWriter> {
    await mkdir(options.dir, { recursive: true });
    const lock = await lockJournal(options.dir);
    const writer = new JournalWriter(options.dir, options.maxSegmentBytes ?? DEFAULT_MAX_SEGMENT_BYTES, lock, options.logger);
    try {
      await writer.startSegment();
    } catch (error) {
      await lock.release();
      throw journalUnavailable(`cannot create a segment in ${options.dir}`, error);
    }
    return writer;
  }

  /** The segment appends go to; merges must not delete it. */
  get activeSegment(): string | undefined {
    return this.name;
  }

  get stats(): JournalWriterStats {
    return { ...this.counters, segment: this.name };
  }

  /** Resolves when the record is on disk; rejects (→ 503) when it could not be made durable. */
  append(body: Buffer, receivedAtMs: number): Promise<void> {
    if (this.closed) return Promise.reject(journalClosed());
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ bytes: encodeRecord(body, receivedAtMs), resolve, reject });
      this.flushing ??= this.flushLoop();
    });
  }

  /** Refuses new appends, waits for queued ones to be fsynced, releases the folder. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flushing;
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
    await this.lock.release();
  }

  private async flushLoop(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      try {
        await this.writeDurably(Buffer.concat(batch.map((p) => p.bytes)));
        this.counters.records += batch.length;
        this.counters.flushes += 1;
        for (const pending of batch) pending.resolve();
      } catch (error) {
        this.counters.failedFlushes += 1;
        this.logger?.error({ err: error, records: batch.length, segment: this.name }, 'journal write failed');
        await this.abandonSegment();
        const failure = journalUnavailable((error as Error).message, error);
        for (const pending of batch) pending.reject(failure);
      }
    }
    this.flushing = undefined;
  }

  private async writeDurably(data: Buffer): Promise<void> {
    if (this.handle === undefined || this.size >= this.maxSegmentBytes) await this.startSegment();
    const handle = this.handle!;
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await handle.write(data, written, data.length - written, this.size + written);
      written += bytesWritten;
    }
    // fdatasync also persists the new file size, which is what makes appended bytes readable.
    await handle.datasync();
    this.size += data.length;
    this.counters.bytes += data.length;
  }

  private async startSegment(): Promise<void> {
    await this.abandonSegment();
    const name = nextSegmentName(await listSegments(this.dir), Date.now());
    const handle = await open(join(this.dir, name), 'wx');
    try {
      await handle.write(SEGMENT_HEADER, 0, SEGMENT_HEADER.length, 0);
      await handle.datasync();
      await fsyncDir(this.dir);
    } catch (error) {
      await handle.close().catch(() => undefined);
      throw error;
    }
    this.handle = handle;
    this.name = name;
    this.size = SEGMENT_HEADER.length;
    this.logger?.debug({ segment: name }, 'journal segment started');
  }

  private async abandonSegment(): Promise<void> {
    const handle = this.handle;
    this.handle = undefined;
    await handle?.close().catch(() => undefined);
  }
}
