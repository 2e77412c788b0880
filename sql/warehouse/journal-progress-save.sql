-- Moves a segment's merged offset, in the transaction that merged the records before it.
-- $1 = segment file name, $2 = byte offset just after the last merged record.
INSERT OR REPLACE INTO receiver_journal_progress (segment, merged_to, updated_at) VALUES ($1, $2, now());
