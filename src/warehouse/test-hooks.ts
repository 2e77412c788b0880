/**
 * Lets the crash test kill a process at the worst moment: with
 * VENUE_ETL_TEST_PAUSE_BEFORE_COMMIT_MS set, a write transaction announces itself on stderr
 * and sleeps just before COMMIT. Unset (always, outside that test) it costs one lookup.
 */
export async function pauseBeforeCommit(): Promise<void> {
  const ms = Number(process.env.VENUE_ETL_TEST_PAUSE_BEFORE_COMMIT_MS ?? 0);
  if (!(ms > 0)) return;
  process.stderr.write('venue-etl: paused before commit\n');
  await new Promise((resolve) => setTimeout(resolve, ms));
}
