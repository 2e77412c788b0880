/**
 * The history streams' metrics as a SQL VALUES list of (stream, metric): the 9 rows per venue and
 * day that the generated benchmark warehouses hold (B5, B11), as the simulator sends them.
 */
export const SERIES_METRICS = `VALUES
  ('venue-devices-history', 'detected'), ('venue-devices-history', 'unique-detected'),
  ('venue-devices-history', 'unique-authenticated'), ('venue-devices-history', 'authenticated'),
  ('venue-users-history', 'logins'), ('venue-users-history', 'unique-logins'),
  ('venue-remarketing-history', 'embeds'),
  ('rating-history', 'rates-average'), ('rating-history', 'rates-count')`;
