/**
 * B7: every named report (`sql/reports/*.sql`) over the B5 data, on the warehouse file and on
 * its Parquet export, through the read side the `report` command uses; the heaviest one is
 * the figure, the others go to the notes.
 */
import { listNamedSql, openParquetSource, openWarehouseSource, runNamedSql, type QuerySource } from '../src/readside/index.js';
import { fmt, type Figure } from './figure.js';

interface Timing {
  readonly name: string;
  readonly warehouseMs: number;
  readonly parquetMs: number;
  readonly rows: number;
}

async function timeReports(open: () => Promise<QuerySource>): Promise<Map<string, { ms: number; rows: number }>> {
  const times = new Map<string, { ms: number; rows: number }>();
  const source = await open();
  try {
    for (const report of listNamedSql('reports')) {
      const started = performance.now();
      const result = await runNamedSql(source.connection, report, {});
      times.set(report.name, { ms: performance.now() - started, rows: result.rows.length });
    }
  } finally {
    await source.close();
  }
  return times;
}

export async function reportQueriesFigure(warehousePath: string, parquetDir: string, seconds = 10): Promise<Figure> {
  const onWarehouse = await timeReports(() => openWarehouseSource(warehousePath));
  const onParquet = await timeReports(() => openParquetSource(parquetDir));
  const timings: Timing[] = [...onWarehouse].map(([name, w]) => ({ name, warehouseMs: w.ms, parquetMs: onParquet.get(name)?.ms ?? Number.NaN, rows: w.rows }));
  timings.sort((a, b) => b.warehouseMs + b.parquetMs - (a.warehouseMs + a.parquetMs));
  const heaviest = timings[0];
  if (!heaviest) throw new Error('no report in sql/reports');
  return {
    id: 'B7',
    what: `heaviest report (${heaviest.name}) on the B5 data`,
    measured: `DuckDB ${fmt.seconds(heaviest.warehouseMs)}, Parquet ${fmt.seconds(heaviest.parquetMs)}`,
    limit: '-',
    ratio: `Parquet ${fmt.ratio(heaviest.parquetMs / heaviest.warehouseMs)}`,
    target: `seconds (< ${seconds} s)`,
    met: heaviest.warehouseMs < seconds * 1000 && heaviest.parquetMs < seconds * 1000,
    notes: [
      `${heaviest.name} returns ${fmt.count(heaviest.rows)} rows. All reports, warehouse / Parquet: ${timings.map((t) => `${t.name} ${fmt.ms(t.warehouseMs)} / ${fmt.ms(t.parquetMs)}`).join(', ')}.`,
    ],
  };
}
