import { open } from 'node:fs/promises';
import { decodeRecord, SEGMENT_HEADER, type JournalRecord } from './journal-format.js';

export interface ReadLimits {
  readonly maxRecords: number;
  readonly maxBytes: number;
}

export interface SegmentRead {
  readonly records: readonly JournalRecord[];
  /** Where the next read starts: the end of the last complete record. */
  readonly next: number;
  /**
   * Why reading stopped: `limit` (more records follow), `end` (the file ends on a record
   * boundary) or `torn` (the bytes from `next` on are not a complete, valid record: a crash
   * mid-write, or in the newest segment possibly a write still in progress).
   */
  readonly stop: 'limit' | 'end' | 'torn';
}

const CHUNK_BYTES = 1024 * 1024;

/**
 * Reads the records of one segment from `offset` (0 = the start of the file), and never past
 * `endAt` (a cut segment's valid length) when given.
 */
export async function readSegment(path: string, offset: number, limits: ReadLimits, endAt?: number): Promise<SegmentRead> {
  const handle = await open(path, 'r');
  try {
    // The size is read once: bytes appended meanwhile are left for the next read.
    const size = Math.min((await handle.stat()).size, endAt ?? Number.POSITIVE_INFINITY);
    let position = Math.max(offset, SEGMENT_HEADER.length);
    if (offset < SEGMENT_HEADER.length) {
      const header = Buffer.alloc(SEGMENT_HEADER.length);
      const { bytesRead } = await handle.read(header, 0, header.length, 0);
      if (bytesRead === 0 && size === 0) return { records: [], next: 0, stop: 'end' };
      if (bytesRead < header.length || !header.equals(SEGMENT_HEADER)) return { records: [], next: 0, stop: 'torn' };
    }
    const records: JournalRecord[] = [];
    let bytes = 0;
    let chunk = Buffer.alloc(0);
    let chunkOffset = position;
    for (;;) {
      if (records.length >= limits.maxRecords || bytes >= limits.maxBytes) return { records, next: position, stop: 'limit' };
      if (position === size) return { records, next: position, stop: 'end' };
      const decoded = decodeRecord(chunk, position - chunkOffset, chunkOffset);
      if (decoded.kind === 'record') {
        records.push(decoded.record);
        bytes += decoded.record.end - decoded.record.offset;
        position = decoded.record.end;
        continue;
      }
      if (decoded.kind === 'invalid' || position + decoded.needed > size) return { records, next: position, stop: 'torn' };
      // Refill from the current record on, large enough for the whole record.
      const length = Math.min(size - position, Math.max(CHUNK_BYTES, decoded.needed));
      chunk = Buffer.allocUnsafe(length);
      let filled = 0;
      while (filled < length) {
        const { bytesRead } = await handle.read(chunk, filled, length - filled, position + filled);
        if (bytesRead === 0) break;
        filled += bytesRead;
      }
      chunk = chunk.subarray(0, filled);
      chunkOffset = position;
      if (filled < decoded.needed) return { records, next: position, stop: 'torn' };
    }
  } finally {
    await handle.close();
  }
}
