-- Every held roles answer (docs/warehouse.md, "Held snapshots"): read once per group of slices.
SELECT kind, scope_id::VARCHAR AS scope_id, snapshot_digest, open_roles, would_close,
       epoch_ms(held_since)::DOUBLE AS held_since_ms, held_by_run
  FROM role_snapshot_holds;
