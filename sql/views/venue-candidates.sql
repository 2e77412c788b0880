-- Every venue known to this read (venue-labels.sql): what `--venues` takes ids, id prefixes,
-- names and labels of. A few thousand rows at most: one per venue.
SELECT venue_id::VARCHAR AS id, name, label
FROM venue_labels
ORDER BY label, id;
