/**
 * Lets the interrupted-export test kill the CLI between two uploads: with
 * VENUE_ETL_TEST_PAUSE_AFTER_UPLOAD_MS set, each object uploaded is announced on stderr and
 * followed by a sleep. Unset (always, outside that test) it costs one lookup.
 */
export async function pauseAfterUpload(): Promise<void> {
  const ms = Number(process.env.VENUE_ETL_TEST_PAUSE_AFTER_UPLOAD_MS ?? 0);
  if (!(ms > 0)) return;
  process.stderr.write('venue-etl: paused after an upload\n');
  await new Promise((resolve) => setTimeout(resolve, ms));
}
