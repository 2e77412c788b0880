import type { Logger } from '../log/index.js';

/**
 * Unknown attributes are tolerated (the data we know is kept) and reported once per stream and
 * attribute, so a nightly log shows an API change without repeating it per venue.
 */
export class DriftReporter {
  private readonly seen = new Set<string>();
  readonly unknown: { stream: string; attribute: string }[] = [];

  constructor(private readonly logger?: Logger) {}

  report(stream: string, resourceType: string, attribute: string): void {
    const key = `${stream}\u0000${attribute}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.unknown.push({ stream, attribute });
    this.logger?.warn(
      { stream, resourceType, attribute },
      'schema drift: the API sent an attribute venue-etl does not know; it is ignored, known attributes are loaded',
    );
  }
}
