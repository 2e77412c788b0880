-- How far a journal segment is merged (byte offset; no row: nothing yet). $1 = segment file name.
SELECT merged_to::DOUBLE AS merged_to FROM receiver_journal_progress WHERE segment = $1;
