-- Slice rows appended by the loader: a multi-row VALUES statement binds seven parameters per
-- slice, which costs more than the rest of a commit on groups of a thousand small slices.
CREATE OR REPLACE TEMP TABLE stage_backfill_slices (
  backfill_id  VARCHAR,
  slice_key    VARCHAR,
  stream       VARCHAR,
  scope_id     VARCHAR,
  window_from  DATE,
  window_to    DATE,
  rows_written INTEGER
);
