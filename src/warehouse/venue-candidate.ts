/** A venue `--venues` may name: by its id, a prefix of it, its name or its label. */
export interface VenueCandidate {
  /** As its source spells it: the config's spelling, or DuckDB's (lower case). */
  readonly id: string;
  readonly name: string | null;
  /** As the reports show it (sql/views/venue-labels.sql); absent where only the config was read. */
  readonly label?: string;
}
