/**
 * The official OpenLineage JSON schemas (test/fixtures/openlineage, version 2-0-2 of the specification) compiled with
 * Ajv's draft 2020-12 validator and its formats (uuid, date-time, uri): an emitted RunEvent is
 * checked as a whole, then each facet against its own facet schema (the event schema checks
 * facets only as base facets).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';

const DIR = join(dirname(fileURLToPath(import.meta.url)), '../fixtures/openlineage');
const addFormats = addFormatsImport as unknown as (ajv: Ajv2020) => Ajv2020;

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
const byId = new Map<string, Record<string, unknown>>();
for (const file of readdirSync(DIR).filter((f) => f.endsWith('.json'))) {
  const schema = JSON.parse(readFileSync(join(DIR, file), 'utf8')) as Record<string, unknown>;
  ajv.addSchema(schema);
  byId.set(String(schema.$id), schema);
}
const runEvent = ajv.getSchema('https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent')!;

function problems(validate: ValidateFunction, value: unknown, where: string): string[] {
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${where}${e.instancePath} ${e.message}`);
}

/** Every way `event` breaks the RunEvent schema or one of its facets' schemas; empty when valid. */
export function lineageProblems(event: Record<string, unknown>): string[] {
  const found = problems(runEvent, event, 'event');
  const facets: [string, Record<string, Record<string, unknown>>][] = [];
  const run = event.run as { facets?: Record<string, Record<string, unknown>> };
  const job = event.job as { facets?: Record<string, Record<string, unknown>> };
  if (run?.facets) facets.push(['run', run.facets]);
  if (job?.facets) facets.push(['job', job.facets]);
  for (const output of (event.outputs ?? []) as {
    facets?: Record<string, Record<string, unknown>>;
    outputFacets?: Record<string, Record<string, unknown>>;
  }[]) {
    if (output.facets) facets.push(['output', output.facets]);
    if (output.outputFacets) facets.push(['output', output.outputFacets]);
  }
  for (const [where, group] of facets) {
    for (const [name, facet] of Object.entries(group)) {
      const schemaUrl = String(facet._schemaURL ?? '');
      const schema = byId.get(schemaUrl.split('#')[0]!);
      if (!schema) {
        found.push(`${where}.${name}: _schemaURL ${schemaUrl} names no official facet schema`);
        continue;
      }
      // The facet schema names its key; under another key the facet would validate vacuously.
      if (!Object.hasOwn((schema.properties ?? {}) as object, name)) found.push(`${where}.${name}: ${schemaUrl} defines no facet "${name}"`);
      found.push(...problems(ajv.getSchema(String(schema.$id))!, { [name]: facet }, `${where}.${name}`));
    }
  }
  return found;
}
