/**
 * Debian's Chromium driven by playwright-core (which never downloads a browser). The browser
 * test needs it: when it is missing the test fails and says how to install it.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.VENUE_ETL_CHROMIUM ?? '/usr/bin/chromium';

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `Chromium is not installed at ${CHROMIUM}: the dashboard's browser test needs a real browser. ` +
        'Install it with `apt-get install -y chromium` (as .ci/run does), or point VENUE_ETL_CHROMIUM at a Chromium binary.',
    );
  }
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'], headless: true });
}
