import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { z } from 'zod';

/** One delivery of one notification to one hook, as `status` shows it. */
export interface DeliveryRecord {
  readonly at: string;
  readonly event: string;
  readonly hook: string;
  readonly delivered: boolean;
  readonly attempts: number;
  readonly status?: number | undefined;
  readonly error?: string | undefined;
  readonly runId?: string | undefined;
  readonly job?: string | undefined;
}

const Record = z.object({
  at: z.string(),
  event: z.string(),
  hook: z.string(),
  delivered: z.boolean(),
  attempts: z.number(),
  status: z.number().optional(),
  error: z.string().optional(),
  runId: z.string().optional(),
  job: z.string().optional(),
});

/**
 * Beside the warehouse, not in it: written by runs that could not open it (a held lock) and read
 * by `status` while another process holds it — exactly when an operator asks whether the alert
 * went out. One JSON line per delivery; past MAX_BYTES the oldest half is dropped.
 */
export function deliveryLogPath(warehousePath: string): string {
  return `${warehousePath}.notifications.jsonl`;
}

/** ~2,000 deliveries: months of nightly alerts. */
const MAX_BYTES = 512 * 1024;

export function recordDelivery(warehousePath: string, record: DeliveryRecord): void {
  const path = deliveryLogPath(warehousePath);
  appendFileSync(path, `${JSON.stringify(record)}\n`);
  if (statSync(path).size > MAX_BYTES) {
    const lines = readFileSync(path, 'utf8').split('\n').filter(Boolean);
    writeFileSync(path, `${lines.slice(Math.floor(lines.length / 2)).join('\n')}\n`);
  }
}

/** The latest deliveries, newest first (at most `limit`). */
export function readDeliveries(warehousePath: string, limit = 20): DeliveryRecord[] {
  const path = deliveryLogPath(warehousePath);
  if (!existsSync(path)) return [];
  const records: DeliveryRecord[] = [];
  const lines = readFileSync(path, 'utf8').split('\n');
  for (let i = lines.length - 1; i >= 0 && records.length < limit; i--) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    try {
      const parsed = Record.safeParse(JSON.parse(line));
      if (parsed.success) records.push(parsed.data);
    } catch {
      // A torn line of a process killed mid-append.
    }
  }
  return records;
}
