import { DuckDBInstance } from '@duckdb/node-api';
import { sql } from '/work/wt/rollups/dist/src/warehouse/sql-files.js';
const i = await DuckDBInstance.create(process.argv[2], { access_mode: 'READ_ONLY' }); const c = await i.connect();
const d = sql('rollups/series-daily-of.sql');
const t = performance.now();
console.log((await c.runAndReadAll(`SELECT count(*)::INTEGER FROM ((SELECT * FROM series_daily EXCEPT ALL SELECT * FROM (${d})) UNION ALL (SELECT * FROM (${d}) EXCEPT ALL SELECT * FROM series_daily))`)).getRows(), (performance.now() - t).toFixed(0), 'ms');
