-- 002_receiver: bookkeeping of the upsert event receiver (src/receiver), written in the same
-- transactions as the rows it merges, so a crash can neither lose nor double-apply an event.

-- How far each journal segment has been merged. Segment file names embed their creation time
-- and a random part and are never reused, so the name alone is the key. A row outlives its
-- file only when the process died between deleting the file and this row (harmless).
CREATE TABLE receiver_journal_progress (
  segment    VARCHAR PRIMARY KEY,         -- journal file name, e.g. 001763700000000-1a2b3c4d.journal
  merged_to  BIGINT      NOT NULL,        -- byte offset just after the last merged record
  updated_at TIMESTAMPTZ NOT NULL
);

-- Per user / venue, which event set each attribute column. A version sorts events from older
-- to newer (last-visit-on, visits-count, received_at, event_id), so an older event never
-- overwrites what a newer one set, whatever the order of arrival.
-- One row per (entity, entity_id), kept so by the merge (delete + insert in one transaction).
-- No PRIMARY KEY on purpose: the table grows with the users, and DuckDB rewrites a table's
-- whole key index at every checkpoint, which the receiver triggers after each merge.
CREATE TABLE receiver_field_versions (
  entity    VARCHAR NOT NULL CHECK (entity IN ('user', 'venue')),
  entity_id UUID    NOT NULL,
  versions  JSON    NOT NULL            -- {"*": "<version>", "<column>": "<version>", …} (see field-versions.ts)
);
