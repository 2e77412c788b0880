-- Forgets a segment deleted (or kept as *.torn) after its full merge. $1 = segment file name.
DELETE FROM receiver_journal_progress WHERE segment = $1;
