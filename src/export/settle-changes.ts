import { randomUUID } from 'node:crypto';
import type { Logger } from '../log/index.js';
import { forgetExportChanges } from '../warehouse/forget-export-changes.js';
import { seqRanges, type ChangeState } from './changes.js';
import { manifestText, withChanges, type Manifest } from './manifest.js';
import type { ExportStore } from './store.js';

/**
 * After every table is exported and its manifest written: forgets the marks of the exported
 * tables that the snapshot saw and records a new generation, then writes the manifest once more
 * with the state it now follows. The claim is only made when it is true: an incremental export
 * kept every other mark, a full one read every table. Returns whether marks were forgotten;
 * a failure (the file locked by another process) leaves them, and the next export reads those
 * partitions again.
 */
export async function settleChanges(
  store: ExportStore,
  path: string,
  manifest: Manifest,
  state: ChangeState | undefined,
  how: { incremental: boolean; everyTable: boolean; exported: readonly string[]; logger: Logger | undefined },
): Promise<boolean> {
  if (state === undefined || (!how.incremental && !how.everyTable)) return false;
  const newGeneration = randomUUID();
  let forgotten = false;
  try {
    forgotten = await forgetExportChanges(
      path,
      { seqRanges: seqRanges(how.exported.flatMap((table) => state.seqs.get(table) ?? [])), expectedGeneration: state.generation, newGeneration },
      how.logger,
    );
    if (!forgotten) how.logger?.warn('another export forgot changes of this warehouse meanwhile; the next export reads every partition');
  } catch (error) {
    how.logger?.warn({ err: error }, 'could not forget the exported changes (the warehouse is busy); the next export reads them again');
  }
  const generation = forgotten ? newGeneration : state.generation;
  // Not forgotten: the marks since the snapshot are all still there, so the old generation holds.
  const changes = generation === undefined ? undefined : { warehouseId: state.warehouseId, generation };
  await store.writeManifest(manifestText(withChanges(manifest, changes)));
  return forgotten;
}
