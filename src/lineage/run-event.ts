import { createHash } from 'node:crypto';
import type { DatasetRef, RunBegun, RunEnded } from '../lifecycle/index.js';

/** The OpenLineage spec the events follow, and the facets' schema versions (docs/operations.md, "Lineage"). */
const SPEC = 'https://openlineage.io/spec/2-0-2/OpenLineage.json';
const FACETS = {
  nominalTime: 'https://openlineage.io/spec/facets/1-0-1/NominalTimeRunFacet.json#/$defs/NominalTimeRunFacet',
  errorMessage: 'https://openlineage.io/spec/facets/1-0-1/ErrorMessageRunFacet.json#/$defs/ErrorMessageRunFacet',
  jobType: 'https://openlineage.io/spec/facets/2-0-4/JobTypeJobFacet.json#/$defs/JobTypeJobFacet',
  schema: 'https://openlineage.io/spec/facets/1-2-0/SchemaDatasetFacet.json#/$defs/SchemaDatasetFacet',
  outputStatistics: 'https://openlineage.io/spec/facets/1-0-2/OutputStatisticsOutputDatasetFacet.json#/$defs/OutputStatisticsOutputDatasetFacet',
} as const;
export const PRODUCER = 'urn:venue-etl';

export type EventType = 'START' | 'COMPLETE' | 'FAIL' | 'ABORT';

const facet = (schema: string) => ({ _producer: PRODUCER, _schemaURL: schema });

/**
 * OpenLineage wants a UUID per run; venue-etl's run ids sort by time and are not UUIDs. The
 * UUID is derived from the run id (a SHA-256, laid out as a version-8 UUID), so START and its
 * end event, even from two processes, name the same run.
 */
export function lineageRunId(runId: string): string {
  const hex = createHash('sha256').update(`venue-etl:${runId}`).digest('hex');
  const variant = ((Number.parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

export function runEvent(type: EventType, namespace: string, run: RunBegun | RunEnded, time = new Date()): Record<string, unknown> {
  const ended = 'outcome' in run ? run : undefined;
  const runFacets: Record<string, unknown> = {
    nominalTime: {
      ...facet(FACETS.nominalTime),
      nominalStartTime: run.startedAt.toISOString(),
      ...(ended ? { nominalEndTime: ended.finishedAt.toISOString() } : {}),
    },
  };
  if (type === 'FAIL' && ended?.error) {
    runFacets.errorMessage = { ...facet(FACETS.errorMessage), message: `${ended.error.code}: ${ended.error.message}`, programmingLanguage: 'TypeScript' };
  } else if (type === 'FAIL' && ended) {
    runFacets.errorMessage = { ...facet(FACETS.errorMessage), message: `${ended.failuresTotal} slices failed`, programmingLanguage: 'TypeScript' };
  }
  return {
    eventType: type,
    eventTime: time.toISOString(),
    producer: PRODUCER,
    schemaURL: `${SPEC}#/$defs/RunEvent`,
    run: { runId: lineageRunId(run.runId), facets: runFacets },
    job: {
      namespace,
      name: run.job,
      facets: {
        jobType: { ...facet(FACETS.jobType), processingType: 'BATCH', integration: 'VENUE_ETL', jobType: run.command.toUpperCase().replace('-', '_') },
      },
    },
    inputs: (ended?.datasets?.inputs ?? []).map((d) => ({ namespace: d.namespace, name: d.name })),
    outputs: (ended?.datasets?.outputs ?? []).map(outputDataset),
  };
}

function outputDataset(dataset: DatasetRef): Record<string, unknown> {
  return {
    namespace: dataset.namespace,
    name: dataset.name,
    ...(dataset.fields ? { facets: { schema: { ...facet(FACETS.schema), fields: dataset.fields.map((f) => ({ name: f.name, type: f.type })) } } } : {}),
    ...(dataset.rowCount === undefined ? {} : { outputFacets: { outputStatistics: { ...facet(FACETS.outputStatistics), rowCount: dataset.rowCount } } }),
  };
}

/** COMPLETE for a run that succeeded or was partial (its data is committed), ABORT when stopped by a signal, FAIL otherwise. */
export function endType(run: RunEnded): EventType {
  if (run.interrupted) return 'ABORT';
  return run.outcome === 'failed' ? 'FAIL' : 'COMPLETE';
}
