/** What the figures were measured on: they mean little without it. */
import { availableParallelism, cpus, loadavg, totalmem } from 'node:os';
import { DuckDBInstance } from '@duckdb/node-api';

export interface Machine {
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryGb: number;
  readonly node: string;
  readonly duckdb: string;
  /** 1-minute load average when the run started and ended: other work on the machine. */
  readonly loadStart: number;
  loadEnd?: number;
}

export async function describeMachine(): Promise<Machine> {
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  let duckdb = 'unknown';
  try {
    const rows = (await connection.runAndReadAll('SELECT version() AS v')).getRowObjectsJson();
    duckdb = String(rows[0]?.v ?? 'unknown');
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
  return {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGb: totalmem() / 2 ** 30,
    node: process.version,
    duckdb,
    loadStart: loadavg()[0]!,
  };
}

export function currentLoad(): number {
  return loadavg()[0]!;
}
