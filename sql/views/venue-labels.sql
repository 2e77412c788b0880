-- venue_labels: the one definition of how a venue is shown (reports, status, the dashboard) and
-- of which names and ids `--venues` accepts. One row per venue known here:
--   venue_id  — from the config's scope.venues, the receiver's venues table (upsert events), or
--               a cursor of a stream asked per venue (the venue has data, whatever the config says);
--   name      — the config's name when it gives one, else the name the events last set; line
--               breaks and other control characters become spaces, blank is no name (NULL);
--   name_from — 'config', 'events' or NULL;
--   label     — the name; the name and the short id (the id's first 8 characters, 13 where
--               another venue's id starts alike) where several venues have that name,
--               "North Hostel (a00faf44)"; the short id alone without a name.
-- The config wins: it is what the operator chose to call the venue, and the events' name is
-- whatever the platform holds (an operator names venues in the config to tell them apart).
--
-- venue_label(id) is the label of any id: a venue not known here (data for a venue no longer in
-- the config, never named by an event) is its short id, and a text that is no id ('all') itself.
--
-- Temporary objects, made at every read-side open (src/readside) and by `reset --venues` under its
-- lock, after config-venues.sql and config-venue-streams.sql have filled the config's part: a
-- snapshot of the venues at that moment. In the DuckDB CLI this file runs on
-- its own: the config's tables are then created empty (no config names, no cursor venues).
CREATE TEMP TABLE IF NOT EXISTS config_venues (venue_id UUID, name VARCHAR);
CREATE TEMP TABLE IF NOT EXISTS config_venue_streams (stream VARCHAR);

-- A table, filled once at open, not a view: venue_label() looks every row of a report up in it,
-- and a view was computed again for each report (365,000 rows labelled: +0.1-0.35 s as a view,
-- within the noise as a table; node probe on a loaded 2-core machine, load average 18-21).
CREATE OR REPLACE TEMP TABLE venue_labels AS
WITH from_config AS (
  -- The config refuses two names for one id; a plain id and a named entry of it may both appear.
  SELECT venue_id, max(name) AS name FROM config_venues GROUP BY venue_id
),
from_events AS (
  SELECT venue_id, name FROM venues
),
from_cursors AS (
  SELECT try_cast(scope_id AS UUID) AS venue_id
  FROM sync_cursors
  WHERE stream IN (SELECT stream FROM config_venue_streams)
),
known AS (
  SELECT venue_id FROM from_config
  UNION SELECT venue_id FROM from_events
  UNION SELECT venue_id FROM from_cursors WHERE venue_id IS NOT NULL
),
named AS (
  SELECT k.venue_id,
         nullif(trim(regexp_replace(c.name, '[[:cntrl:]]+', ' ', 'g')), '') AS config_name,
         nullif(trim(regexp_replace(e.name, '[[:cntrl:]]+', ' ', 'g')), '') AS event_name
  FROM known k
  LEFT JOIN from_config c ON c.venue_id = k.venue_id
  LEFT JOIN from_events e ON e.venue_id = k.venue_id
),
chosen AS (
  SELECT venue_id,
         coalesce(config_name, event_name) AS name,
         CASE WHEN config_name IS NOT NULL THEN 'config' WHEN event_name IS NOT NULL THEN 'events' END AS name_from,
         -- Two of 5,000 random ids share their first 8 characters with a chance of 0.3 %: those
         -- two are told apart by their first 13 ("a00faf44-1f2e").
         CASE WHEN count(*) OVER (PARTITION BY left(venue_id::VARCHAR, 8)) > 1 THEN left(venue_id::VARCHAR, 13)
              ELSE left(venue_id::VARCHAR, 8) END AS short_id
  FROM named
)
SELECT venue_id,
       name,
       name_from,
       CASE WHEN name IS NULL THEN short_id
            WHEN count(*) OVER (PARTITION BY name) > 1 THEN name || ' (' || short_id || ')'
            ELSE name END AS label
FROM chosen;

CREATE OR REPLACE TEMP MACRO venue_label(id) AS
  CASE WHEN try_cast(id AS UUID) IS NULL THEN id::VARCHAR
       ELSE coalesce((SELECT l.label FROM venue_labels l WHERE l.venue_id = try_cast(id AS UUID)), left(id::VARCHAR, 8)) END;
