import { mkdir, open, rename, stat, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../log/index.js';
import { encodeRecord, SEGMENT_HEADER } from './journal-format.js';
import { lockJournal, type JournalLock } from './journal-lock.js';
import { cutSegmentName, fsyncDir, listSegments, nextSegmentName } from './journal-segments.js';
import { journalClosed, journalFull, journalUnavailable } from './receiver-errors.js';

export interface JournalWriterOptions {
  readonly dir: string;
  /** A write that finds the segment at least this large starts a new one first. */
  readonly maxSegmentBytes?: number;
  /**
   * Appends are refused (503) while the journal holds this many bytes not known to be merged
   * (see `mergedUpTo`): a warehouse locked for days must not fill the disk. Default: no cap.
   */
  readonly maxUnmergedBytes?: number;
  readonly logger?: Logger;
}

export interface JournalWriterStats {
  readonly records: number;
  readonly bytes: number;
  /** write + fsync rounds; records / flushes is the group-commit factor. */
  readonly flushes: number;
  readonly failedFlushes: number;
  readonly segment: string | undefined;
  /** Journaled bytes not known to be merged yet (what `maxUnmergedBytes` caps). */
  readonly unmergedBytes: number;
  /** Appends refused because `maxUnmergedBytes` was reached. */
  readonly refusedFull: number;
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
 * A failed round (disk full, I/O error) is refused as a whole, and none of its bytes may ever
 * be merged — not even records written whole before the disk filled up: the segment is cut
 * back to its last durable byte and goes on (see `dropFailedTail`).
 */
export class JournalWriter {
  private handle: FileHandle | undefined;
  private name: string | undefined;
  private size = 0;
  private queue: Pending[] = [];
  private queuedBytes = 0;
  private flushing: Promise<void> | undefined;
  private closed = false;
  private released = false;
  /** Bytes in the journal: the segments found at open plus every durable append since. */
  private journaled = 0;
  /** `journaled` as it was when the last complete merge started. */
  private merged = 0;
  private counters = { records: 0, bytes: 0, flushes: 0, failedFlushes: 0, refusedFull: 0 };

  private constructor(
    private readonly dir: string,
    private readonly maxSegmentBytes: number,
    private readonly maxUnmergedBytes: number,
    private readonly lock: JournalLock,
    private readonly logger: Logger | undefined,
  ) {}

  /** Takes the folder's writer lock and starts a fresh segment (older ones are sealed from now on). */
  static async open(options: JournalWriterOptions): Promise<JournalWriter> {
    await mkdir(options.dir, { recursive: true });
    const lock = await lockJournal(options.dir);
    const writer = new JournalWriter(
      options.dir,
      options.maxSegmentBytes ?? DEFAULT_MAX_SEGMENT_BYTES,
      options.maxUnmergedBytes ?? Number.POSITIVE_INFINITY,
      lock,
      options.logger,
    );
    try {
      // What earlier runs left counts as unmerged until a merge says otherwise.
      writer.journaled = await journalBytes(options.dir);
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
    return { ...this.counters, segment: this.name, unmergedBytes: this.unmergedBytes };
  }

  get unmergedBytes(): number {
    return Math.max(0, this.journaled - this.merged);
  }

  /** A mark of everything durable so far; pass it to `mergedUpTo` once a merge started after it completes. */
  mark(): number {
    return this.journaled;
  }

  /** A merge that started at `mark` took in everything before it. */
  mergedUpTo(mark: number): void {
    this.merged = Math.max(this.merged, mark);
  }

  /** Resolves when the record is on disk; rejects (→ 503) when it could not be made durable. */
  append(body: Buffer, receivedAtMs: number): Promise<void> {
    if (this.closed) return Promise.reject(journalClosed());
    const bytes = encodeRecord(body, receivedAtMs);
    if (this.unmergedBytes + this.queuedBytes + bytes.length > this.maxUnmergedBytes) {
      this.counters.refusedFull += 1;
      return Promise.reject(journalFull(this.unmergedBytes, this.maxUnmergedBytes));
    }
    return new Promise<void>((resolve, reject) => {
      this.queue.push({ bytes, resolve, reject });
      this.queuedBytes += bytes.length;
      this.flushing ??= this.flushLoop();
    });
  }

  /** Refuses new appends and waits for queued ones to be fsynced; the folder stays locked. */
  async seal(): Promise<void> {
    this.closed = true;
    await this.flushing;
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
  }

  /** Seals the journal and releases the folder. */
  async close(): Promise<void> {
    await this.seal();
    if (this.released) return;
    this.released = true;
    await this.lock.release();
  }

  private async flushLoop(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      const data = Buffer.concat(batch.map((p) => p.bytes));
      this.queuedBytes -= data.length;
      try {
        await this.writeDurably(data);
        this.counters.records += batch.length;
        this.counters.flushes += 1;
        for (const pending of batch) pending.resolve();
      } catch (error) {
        this.counters.failedFlushes += 1;
        this.logger?.error({ err: error, records: batch.length, segment: this.name }, 'journal write failed; the requests are refused');
        await this.dropFailedTail();
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
    this.journaled += data.length;
    this.counters.bytes += data.length;
  }

  /**
   * After a failed round: a full disk accepts part of a write, so whole records of refused
   * requests (and a torn one) may sit after the last durable byte. Cutting the file back to it
   * (which needs no free space) keeps the segment in use, instead of opening a new segment per
   * refused request. When even that fails, the segment is closed and renamed with its valid
   * length (`<name>.<N>.journal`), which every reader honours.
   */
  private async dropFailedTail(): Promise<void> {
    const handle = this.handle;
    const name = this.name;
    if (handle === undefined || name === undefined) return; // the round failed before any byte went to a segment
    try {
      await handle.truncate(this.size);
      await handle.datasync();
      return;
    } catch (error) {
      this.logger?.error(
        { err: error, segment: name, validBytes: this.size },
        'cannot cut the refused tail off the journal segment; renaming it with its valid length',
      );
    }
    await this.abandonSegment();
    this.name = undefined;
    const cut = cutSegmentName(name, this.size);
    try {
      await rename(join(this.dir, name), join(this.dir, cut));
      await fsyncDir(this.dir);
    } catch (error) {
      this.logger?.error(
        { err: error, segment: name, validBytes: this.size },
        `the journal segment may hold bytes of refused requests after byte ${this.size}; rename it to ${cut} before the next merge`,
      );
    }
  }

  private async startSegment(): Promise<void> {
    await this.abandonSegment();
    this.name = undefined;
    const name = nextSegmentName(await listSegments(this.dir), Date.now());
    const path = join(this.dir, name);
    const handle = await open(path, 'wx');
    try {
      await handle.write(SEGMENT_HEADER, 0, SEGMENT_HEADER.length, 0);
      await handle.datasync();
      await fsyncDir(this.dir);
    } catch (error) {
      await handle.close().catch(() => undefined);
      // A segment without its header holds nothing: left behind, a full disk would collect one per refused request.
      await unlink(path).catch((cause: unknown) =>
        this.logger?.warn({ err: cause, segment: name }, 'cannot remove a journal segment that could not be started'),
      );
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

/** Bytes of the segments in `dir`. */
async function journalBytes(dir: string): Promise<number> {
  let total = 0;
  for (const name of await listSegments(dir)) {
    total += await stat(join(dir, name)).then(
      (s) => s.size,
      () => 0,
    );
  }
  return total;
}
