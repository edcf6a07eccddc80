-- Retention of finished tables' logs (docs/operations.md, "Retention"): a practice game's log is
-- pruned a day after it ends (--practice_log_retention_hours); a rated game's is kept as long as
-- match history may ask for its replay (--rated_log_retention_days, 0: for ever). The pruner finds
-- them by kind and end time without reading the logs.
ALTER TABLE table_tables ADD COLUMN practice boolean NOT NULL DEFAULT false;
-- Practice tables' match ids are always "practice:..." (the table service makes them).
UPDATE table_tables SET practice = true WHERE match_id LIKE 'practice:%';
CREATE INDEX table_tables_finished ON table_tables (practice, finished_us)
  WHERE finished_us IS NOT NULL;
