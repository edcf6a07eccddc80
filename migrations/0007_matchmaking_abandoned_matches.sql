-- A match whose table no live host could make within the placement timeout is given up
-- (abandoned); its tickets go back to waiting, so no player is stuck behind it.
ALTER TABLE mm_matches DROP CONSTRAINT mm_matches_state_check;
ALTER TABLE mm_matches ADD CONSTRAINT mm_matches_state_check
  CHECK (state IN ('placing', 'placed', 'abandoned'));
