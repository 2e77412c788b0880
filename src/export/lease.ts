import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { z } from 'zod';
import { EtlError } from '../errors/index.js';
import { processAlive } from '../infra/pid-lock.js';
import type { Logger } from '../log/index.js';
import { describeKey, type ObjectStore } from '../lake/index.js';
import { describeWriter } from './tables.js';

/**
 * How long a lease holds without renewal. The holder renews it every third of this, so a live
 * export never loses it; a killed one on another machine blocks the next run for at most this
 * long (on the same machine its dead pid frees it at once). One PUT per 20 s costs nothing next
 * to the uploads.
 */
export const LEASE_SECONDS = 60;

const leaseSchema = z.object({
  host: z.string(),
  pid: z.number().int(),
  token: z.string(),
  renewedAt: z.string(),
  leaseSeconds: z.number().positive(),
});
type Lease = z.infer<typeof leaseSchema>;

/** `_venue_etl_lock.json` for the default writer, `_venue_etl_lock-<id>.json` otherwise, at the lake root. */
export function leaseKey(writer: string): string {
  return writer === '' ? '_venue_etl_lock.json' : `_venue_etl_lock-${writer}.json`;
}

const heldInThisProcess = new Set<string>();

/**
 * One export per writer of an object-store lake at a time. An object store has no locks nor
 * create-if-absent everywhere (Swift's s3api has no conditional PUT), so this is a lease object
 * holding the holder's host, pid and last renewal:
 * - a lease renewed within its time by a process that may be alive refuses the export
 *   (VENUE_EXPORT_BUSY, naming host and pid and when it expires);
 * - a lease whose time ran out, or held on this machine by a pid that no longer runs (kill -9),
 *   is taken over;
 * - after writing its lease the export reads it back: another export that wrote in between
 *   wins and this one stops. Two exports starting within the same round trip can still both
 *   win; the lease guards against a second run started by hand or by an overlapping schedule,
 *   not against that (one writer id is one worker: docs/parquet.md, "Writers and shards: one lake").
 * Returns the release, which stops renewing and deletes the lease if it is still ours.
 */
export async function acquireLease(objects: ObjectStore, writer: string, logger: Logger | undefined): Promise<() => Promise<void>> {
  const key = leaseKey(writer);
  const where = describeKey(objects.target, key);
  if (heldInThisProcess.has(where)) throw busy(where, writer, { host: hostname(), pid: process.pid });
  const current = parseLease(await objects.get(key));
  if (current !== undefined) {
    const why = whyStale(current);
    if (why === undefined) throw busy(where, writer, current);
    logger?.warn({ lease: where, holder: `${current.host}:${current.pid}`, why }, 'took over the lease of an export that is gone');
  }
  const mine: Lease = { host: hostname(), pid: process.pid, token: randomUUID(), renewedAt: new Date().toISOString(), leaseSeconds: LEASE_SECONDS };
  await objects.putBytes(key, leaseBytes(mine));
  const readBack = parseLease(await objects.get(key));
  if (readBack?.token !== mine.token) throw busy(where, writer, readBack ?? mine);
  heldInThisProcess.add(where);
  let renewing: Promise<void> = Promise.resolve();
  const renewal = setInterval(
    () => {
      renewing = objects
        .putBytes(key, leaseBytes({ ...mine, renewedAt: new Date().toISOString() }))
        .then(() => undefined)
        .catch((error: unknown) => {
          logger?.debug({ err: error }, 'could not renew the export lease; trying again');
        });
    },
    (LEASE_SECONDS * 1000) / 3,
  );
  renewal.unref();
  return async () => {
    clearInterval(renewal);
    // A renewal in flight would otherwise land after the delete and leave the lease behind.
    await renewing;
    heldInThisProcess.delete(where);
    const still = parseLease(await objects.get(key).catch(() => undefined));
    if (still?.token === mine.token) await objects.delete([key]);
  };
}

/** Why a lease no longer holds; undefined while its holder may be running. */
function whyStale(lease: Lease, now = Date.now()): string | undefined {
  if (lease.host === hostname() && (lease.pid === process.pid || !processAlive(lease.pid))) return 'its process no longer runs on this machine';
  const renewed = Date.parse(lease.renewedAt);
  if (Number.isNaN(renewed)) return 'it says no time';
  if (now > renewed + lease.leaseSeconds * 1000) return `not renewed for ${Math.round((now - renewed) / 1000)} s`;
  return undefined;
}

function busy(where: string, writer: string, holder: { host: string; pid: number; renewedAt?: string; leaseSeconds?: number }): EtlError {
  const until =
    holder.renewedAt !== undefined && holder.leaseSeconds !== undefined
      ? ` (its lease runs until ${new Date(Date.parse(holder.renewedAt) + holder.leaseSeconds * 1000).toISOString()} unless renewed)`
      : '';
  return new EtlError(
    'VENUE_EXPORT_BUSY',
    `another export (PID ${holder.pid} on ${holder.host}) is writing ${describeWriter(writer)}'s files of this lake${until}`,
    {
      hint: `wait for it to finish; an export that was killed frees ${where} when its lease runs out (${LEASE_SECONDS} s), or at once when rerun on the same machine`,
      details: { lease: where, host: holder.host, pid: holder.pid },
    },
  );
}

function parseLease(bytes: Buffer | undefined): Lease | undefined {
  if (bytes === undefined) return undefined;
  try {
    const parsed = leaseSchema.safeParse(JSON.parse(bytes.toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function leaseBytes(lease: Lease): Buffer {
  return Buffer.from(`${JSON.stringify(lease, null, 2)}\n`, 'utf8');
}
