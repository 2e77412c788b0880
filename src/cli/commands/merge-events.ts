import { ExitCode } from '../../errors/index.js';
import { journalDirOf, mergeJournal, type MergeResult } from '../../receiver/index.js';
import { listSegments } from '../../receiver/journal-segments.js';
import { LOCK_WAIT_MS } from '../../runner/sync-job.js';
import { openWarehouseWhenFree } from '../../warehouse/index.js';
import type { Command } from '../command.js';
import { commandLogger, loadCredentialFreeCommandConfig } from '../context.js';
import { observeTask } from '../../ops/index.js';

export const mergeEventsCommand: Command = {
  name: 'merge-events',
  summary:
    "Merge the event receiver's journal into the warehouse without serve (for cron setups, or before an export). Needs only warehouse.path and the journal folder.",
  options: {},
  async run(args, io) {
    const config = loadCredentialFreeCommandConfig(args, io);
    const logger = commandLogger(args, io, config);
    const journalDir = journalDirOf(config);
    if ((await listSegments(journalDir)).length === 0) {
      io.stdout.write(`nothing to merge: no journal segments in ${journalDir}\n`);
      return ExitCode.ok;
    }
    const result = await observeTask(
      { config, logger, job: 'merge-events', command: 'merge-events' },
      async () => {
        // A serve in another process may be merging (or running a job): wait for the lock like sync.
        const warehouse = await openWarehouseWhenFree(config.warehouse.path, { waitMs: LOCK_WAIT_MS, logger, signal: io.signal });
        try {
          // A receiver still appending to the newest segment keeps it: that one is merged, not deleted.
          return await mergeJournal(journalDir, warehouse, { logger, shouldStop: () => io.signal.aborted });
        } finally {
          await warehouse.close();
        }
      },
      (merged: MergeResult) => ({
        outcome: merged.status === 'stopped' ? 'partial' : 'succeeded',
        rowsByTable: { upsert_events: merged.inserted },
        outputs: [{ namespace: `duckdb://${config.warehouse.path}`, name: 'upsert_events', rowCount: merged.inserted }],
      }),
    );
    const what = `${result.records} journal records: ${result.inserted} new events, ${result.duplicates} already stored, ${result.invalid} invalid (skipped, logged); ${result.segmentsRemoved} segments removed`;
    if (result.status === 'stopped') {
      io.stdout.write(`merge stopped after ${what}; the rest stays in the journal (run it again)\n`);
      return ExitCode.failed;
    }
    io.stdout.write(`merged ${what} into ${config.warehouse.path}\n`);
    return ExitCode.ok;
  },
};
