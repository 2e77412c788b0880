import { crc32 } from 'node:zlib';

/**
 * One journal segment is a file: an 8-byte header, then records back to back.
 *
 *   header  "VEJRNL" + u16 LE format version (1)
 *   record  u32 LE  body length N
 *           f64 LE  received_at, epoch milliseconds
 *           N bytes the request body, exactly as received (its SHA-256 is the event id)
 *           u32 LE  CRC-32 of the 12 + N bytes before it
 *
 * Records are only ever appended and acknowledged after fsync, so after a crash only the
 * last record can be incomplete: a short read or a checksum mismatch marks the end of the
 * valid part, and the bytes after it are ignored (never acknowledged, the sender retried).
 */
export const SEGMENT_HEADER = Buffer.from([0x56, 0x45, 0x4a, 0x52, 0x4e, 0x4c, 0x01, 0x00]);
const RECORD_OVERHEAD = 16;
/** Larger than any body the config allows (64 MiB); a bigger length is corruption. */
const MAX_RECORD_BODY = 64 * 1024 * 1024;

export interface JournalRecord {
  /** Byte offset of the record in its segment, and of the byte after it. */
  readonly offset: number;
  readonly end: number;
  readonly receivedAtMs: number;
  readonly body: Buffer;
}

export function encodeRecord(body: Buffer, receivedAtMs: number): Buffer {
  const out = Buffer.allocUnsafe(RECORD_OVERHEAD + body.length);
  out.writeUInt32LE(body.length, 0);
  out.writeDoubleLE(receivedAtMs, 4);
  body.copy(out, 12);
  out.writeUInt32LE(crc32(out.subarray(0, 12 + body.length)), 12 + body.length);
  return out;
}

export type DecodeResult =
  | { readonly kind: 'record'; readonly record: JournalRecord }
  /** The buffer ends inside the record: read more, or it is a torn tail. */
  | { readonly kind: 'short'; readonly needed: number }
  /** The bytes at this offset are not a valid record. */
  | { readonly kind: 'invalid' };

/** Decodes the record starting at `at` in `chunk`, whose first byte is at file `chunkOffset`. */
export function decodeRecord(chunk: Buffer, at: number, chunkOffset: number): DecodeResult {
  if (chunk.length - at < 12) return { kind: 'short', needed: 12 };
  const length = chunk.readUInt32LE(at);
  if (length > MAX_RECORD_BODY) return { kind: 'invalid' };
  const total = RECORD_OVERHEAD + length;
  if (chunk.length - at < total) return { kind: 'short', needed: total };
  const stored = chunk.readUInt32LE(at + 12 + length);
  if (crc32(chunk.subarray(at, at + 12 + length)) !== stored) return { kind: 'invalid' };
  const receivedAtMs = chunk.readDoubleLE(at + 4);
  if (!Number.isFinite(receivedAtMs)) return { kind: 'invalid' };
  const offset = chunkOffset + at;
  return {
    kind: 'record',
    record: { offset, end: offset + total, receivedAtMs, body: Buffer.from(chunk.subarray(at + 12, at + 12 + length)) },
  };
}
