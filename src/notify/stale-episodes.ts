import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { z } from 'zod';
import type { StreamFreshness } from '../lifecycle/index.js';

const State = z.object({ staleStreams: z.array(z.string()) });

/** Which streams were stale when last looked at: a stream.stale goes out once per episode, not every run. */
export function staleStatePath(warehousePath: string): string {
  return `${warehousePath}.stale-streams.json`;
}

/**
 * The streams stale now that were not at the previous look (a new episode each); the state is
 * replaced with the streams stale now, so a stream that is fresh again can start a new episode.
 */
export function newlyStale(warehousePath: string, freshness: readonly StreamFreshness[]): StreamFreshness[] {
  const path = staleStatePath(warehousePath);
  let before = new Set<string>();
  if (existsSync(path)) {
    try {
      before = new Set(State.parse(JSON.parse(readFileSync(path, 'utf8'))).staleStreams);
    } catch {
      // A torn or hand-edited file: every stale stream starts an episode again (one extra alert, none lost).
    }
  }
  const stale = freshness.filter((f) => f.stale);
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, `${JSON.stringify({ staleStreams: stale.map((f) => f.stream) })}\n`);
  renameSync(temp, path);
  return stale.filter((f) => !before.has(f.stream));
}
