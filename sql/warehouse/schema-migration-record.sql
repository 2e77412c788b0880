-- Records a migration, in the transaction that applied it. $1 = version, $2 = name.
INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, now());
