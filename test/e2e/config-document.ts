import { readFileSync } from 'node:fs';
import { z } from 'zod';

/** One section of the config file: any key, any value (tests write wrong ones on purpose). */
const section = z.record(z.string(), z.unknown());

/**
 * The fixture's config file (see startFixture) as JSON, to be edited before the CLI reads it.
 * Open records, not the config's own schema: tests add unknown keys and wrong types on purpose.
 */
const configDocumentSchema = z.looseObject({
  api: section,
  scope: z.looseObject({ venues: z.array(z.string()) }),
  sync: section,
  warehouse: section,
  parquet: section,
  log: section,
});
export type ConfigDocument = z.infer<typeof configDocumentSchema>;

export function readConfigDocument(path: string): ConfigDocument {
  return configDocumentSchema.parse(JSON.parse(readFileSync(path, 'utf8')));
}
