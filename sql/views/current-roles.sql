-- The current-role views of 001_initial.sql, recreated over the tables' Parquet views (venue-etl sql --parquet)
CREATE VIEW current_venue_roles AS
  SELECT * FROM venue_roles WHERE valid_to IS NULL;

CREATE VIEW current_project_roles AS
  SELECT * FROM project_roles WHERE valid_to IS NULL;
