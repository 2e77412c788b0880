import type { Logger } from '../log/index.js';
import { openWarehouseWhenFree } from './open-when-free.js';
import { sql } from './sql-files.js';

export interface ForgetExportChanges {
  /** Marks the export's snapshot saw, as inclusive seq ranges. */
  readonly seqRanges: readonly (readonly [bigint, bigint])[];
  /** The generation the export read in its snapshot (undefined: none yet). */
  readonly expectedGeneration: string | undefined;
  /** The generation the export's manifest will carry. */
  readonly newGeneration: string;
}

/**
 * After the export's manifest is written: deletes the marks it exported and records its new
 * generation, in one transaction. Refuses (returns false, changing nothing) when the
 * generation moved since the export's snapshot (another folder's export forgot marks
 * meanwhile). Opening the file for writing may wait for or fail on another process's lock:
 * the caller treats a failure as "not forgotten", which costs the next export a rewrite of
 * these partitions, never a lost change.
 */
export async function forgetExportChanges(path: string, forget: ForgetExportChanges, logger?: Logger): Promise<boolean> {
  const warehouse = await openWarehouseWhenFree(path, { waitMs: FORGET_WAIT_MS, ...(logger ? { logger } : {}) });
  try {
    return await warehouse.transaction(async (session) => {
      const rows = await session.all<{ value: string }>(sql('warehouse/export-generation-read.sql'));
      if (rows[0]?.value !== forget.expectedGeneration) return false;
      const ranges = forget.seqRanges.map(([lo, hi]) => `${lo}-${hi}`).join(',');
      if (ranges !== '') await session.run(sql('warehouse/export-changes-forget.sql'), [ranges]);
      await session.run(sql('warehouse/export-generation-set.sql'), [forget.newGeneration]);
      return true;
    }, 'forgetting exported changes');
  } finally {
    await warehouse.close();
  }
}

/** `serve` holds the file for moments at a time; a nightly job for longer, then the marks stay. */
const FORGET_WAIT_MS = 10_000;
