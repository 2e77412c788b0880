import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseManifest, type Manifest, type TableEntry } from '../export/manifest.js';

/**
 * The manifests a lake may hold at its root, one per writer (docs/lake.md):
 * `_venue_etl_manifest.json` for the default writer, `_venue_etl_manifest-<id>.json` for a
 * writer named by `parquet.writer` and/or a shard.
 */
const MANIFEST_NAME = /^_venue_etl_manifest(?:-[a-z0-9][a-z0-9_-]*)?\.json$/;

export function isManifestName(name: string): boolean {
  return MANIFEST_NAME.test(name);
}

/** Every writer's manifest in a local folder (absent, unreadable or foreign ones read as empty). */
export function localManifests(root: string): Manifest[] {
  let names: string[];
  try {
    names = readdirSync(root);
  } catch {
    return [];
  }
  return names
    .filter(isManifestName)
    .sort()
    .map((name) => {
      try {
        return parseManifest(readFileSync(join(root, name), 'utf8'));
      } catch {
        return parseManifest(undefined);
      }
    });
}

/**
 * The entry each table's view takes its columns from, over every writer's manifest. Writers of
 * one version export the same schema; when they disagree (one writer upgraded before the
 * others) the newest export wins — its columns are the ones a new file has, and the view casts
 * the older files' columns of the same names to its types. (A column that older files lack is
 * not filled in: the glob reads without union_by_name, which would open every file's footer on
 * each query — a request per file on an object store.) A table no manifest lists gets no entry: its view
 * then reads the types the Parquet files carry (a writer whose manifest is missing still
 * contributes its rows, because the views read files by glob, not by manifest).
 */
export function tableEntries(manifests: readonly Manifest[]): Record<string, TableEntry> {
  const chosen: Record<string, TableEntry> = {};
  for (const manifest of manifests) {
    for (const [table, entry] of Object.entries(manifest.tables)) {
      const current = chosen[table];
      if (current === undefined || entry.exportedAt > current.exportedAt) chosen[table] = entry;
    }
  }
  return chosen;
}
