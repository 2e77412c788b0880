import { existsSync } from 'node:fs';
import type { Config } from '../config/index.js';
import { isS3Target } from '../lake/target.js';
import { configVenueCandidates } from './config-candidates.js';
import { idsOnly, KNOWN_VENUES_SELECTION, selectVenues } from './select-venues.js';

/**
 * A selection checked before a command opens what it reads (report, dashboard, reset): where that
 * does not exist yet, the config's venues are all there is to know, and a selection naming none of
 * them is refused as a usage error (exit 2) — not as the missing file (exit 1), a bad argument
 * being exit 2 whether or not the file exists. Where it exists, the names and prefixes are settled
 * on it, after it is opened.
 */
export function checkVenuesWhereNothingIsStored(
  texts: readonly string[] | undefined,
  config: Pick<Config, 'scope' | 'warehouse' | 'parquet'>,
  parquet = false,
): void {
  if (texts === undefined || idsOnly(texts)) return;
  // An object store is asked when it is opened: only local files are looked for here.
  if (parquet ? isS3Target(config.parquet.dir) || existsSync(config.parquet.dir) : existsSync(config.warehouse.path)) return;
  selectVenues(texts, configVenueCandidates(config), KNOWN_VENUES_SELECTION);
}
