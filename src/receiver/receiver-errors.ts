import { EtlError } from '../errors/index.js';

/** The journal could not make an event durable: the request is answered 503 and retried. */
export function journalUnavailable(reason: string, cause?: unknown): EtlError {
  return new EtlError('VENUE_RECEIVER_JOURNAL', `the event journal cannot write: ${reason}`, {
    hint: 'check free space and permissions of receiver.journalDir; senders get 503 with Retry-After meanwhile',
    cause,
  });
}

export function journalClosed(): EtlError {
  return new EtlError('VENUE_RECEIVER_CLOSED', 'the receiver is shutting down', {
    hint: 'the sender retries after Retry-After; the next start takes the event',
  });
}

export function journalLocked(dir: string, pid: number): EtlError {
  return new EtlError('VENUE_RECEIVER_JOURNAL_LOCKED', `another receiver (PID ${pid}) writes the journal in ${dir}`, {
    hint: 'run one receiver per receiver.journalDir; if no other receiver runs, delete the writer.lock file there',
    details: { dir, pid },
  });
}

/** The journal holds `receiver.maxJournalBytes` of events the warehouse has not taken yet. */
export function journalFull(unmergedBytes: number, maxBytes: number): EtlError {
  return new EtlError(
    'VENUE_RECEIVER_JOURNAL_FULL',
    `the event journal holds ${unmergedBytes} bytes not merged into the warehouse yet (receiver.maxJournalBytes: ${maxBytes})`,
    {
      hint: 'the warehouse has been locked or failing for long: free it, or run `venue-etl merge-events`; senders get 503 with Retry-After meanwhile and nothing acknowledged is dropped',
      details: { unmergedBytes, maxBytes },
    },
  );
}
