import { ExitCode } from '../../errors/index.js';
import { EXPORT_TABLES, exportParquet, exportTotals, writerId } from '../../export/index.js';
import { SHARD_ENV } from '../../runner/shard.js';
import { shardOption } from '../shard-option.js';
import { formatExportReport } from '../../export/format-report.js';
import { ProgressReporter } from '../../runner/progress.js';
import { booleanOption, listOption } from '../args.js';
import type { Command } from '../command.js';
import { commandLogger, loadReadSideCommandConfig } from '../context.js';
import { TABLE_OR_JSON_OPTION, tableOrJson, writeJson } from '../output-format.js';
import { progressTerminal } from '../terminal.js';
import { observeTask } from '../../ops/index.js';
import { formatShard } from '../../runner/shard.js';

/** Lineage's namespace of the Parquet tables: the lake (`s3://bucket/prefix`) or the folder. */
function parquetNamespace(dir: string): string {
  return dir.startsWith('s3://') ? dir : `file://${dir}`;
}

export const exportCommand: Command = {
  name: 'export',
  summary: 'Write the warehouse tables to Parquet in parquet.dir (hive partitions by stream and month), rewriting only what changed.',
  options: {
    tables: { type: 'string', description: 'only these tables (comma-separated)', valueName: 'T,T', choices: EXPORT_TABLES.map((t) => t.name), list: true },
    full: { type: 'boolean', description: 'read every partition instead of only those changed since the last export' },
    shard: {
      type: 'string',
      description: `export as shard I of N's writer (files data-[<parquet.writer>-]shard<I>of<N>.parquet beside the other shards'), as sync --shard I/N filled this warehouse (default: ${SHARD_ENV})`,
      valueName: 'I/N',
    },
    'take-over': {
      type: 'boolean',
      description: "export as this writer although another warehouse's export wrote its manifest: this warehouse replaces that one",
    },
    format: TABLE_OR_JSON_OPTION,
  },
  async run(args, io) {
    const format = tableOrJson(args);
    const config = loadReadSideCommandConfig(args, io);
    const logger = commandLogger(args, io, config);
    const tables = listOption(args, 'tables');
    const tty = progressTerminal(io);
    const shard = shardOption(args, io.env);
    const writer = writerId(config.parquet.writer, shard);
    const report = await observeTask(
      { config, logger, job: 'export', command: 'export', ...(shard ? { shard: formatShard(shard) } : {}) },
      (task) =>
        exportParquet({
          warehouse: config.warehouse.path,
          dir: config.parquet.dir,
          writer,
          ...(config.parquet.s3 ? { s3: config.parquet.s3 } : {}),
          takeOver: booleanOption(args, 'take-over'),
          logger,
          signal: io.signal,
          full: booleanOption(args, 'full'),
          // Files written of files planned, like the sync's slices: a bar on a terminal, else a log line every 10 s.
          progress: (files) => {
            const reporter = new ProgressReporter(files, undefined, { logger, label: 'export', unit: 'files', ...(tty ? { tty } : {}) });
            task.planned(files);
            reporter.start();
            return {
              fileWritten: (rows) => {
                reporter.sliceDone(rows);
                task.done(1, rows);
              },
              stop: () => reporter.stop(),
            };
          },
          ...(tables ? { tables } : {}),
        }),
      (done) => ({
        outcome: 'succeeded',
        rowsByTable: Object.fromEntries(done.tables.map((t) => [t.table, t.rowsWritten])),
        outputs: done.tables.map((t) => ({ namespace: parquetNamespace(config.parquet.dir), name: t.table, rowCount: t.rowsWritten })),
      }),
    );
    if (format === 'json') writeJson(io, { ...report, totals: exportTotals(report) });
    else io.stdout.write(formatExportReport(report));
    return ExitCode.ok;
  },
};
