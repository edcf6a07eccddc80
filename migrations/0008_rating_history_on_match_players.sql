-- The rating a player left a match with now lives on the player's row of that match, not in a
-- table of its own: a four-player match writes four rows and four index entries fewer (their
-- insert was about 15% of the batch's statement time under kahve load rating, by
-- pg_stat_statements). GetRatingHistory reads the rows whose mu is set: those of rated matches.
-- Unrated matches (bots from the start) leave it NULL.
ALTER TABLE rating_match_players
  ADD COLUMN mode    smallint,
  ADD COLUMN mu      double precision,
  ADD COLUMN sigma   double precision,
  ADD COLUMN display double precision;

UPDATE rating_match_players p SET mode = m.mode
  FROM rating_matches m WHERE m.match_id = p.match_id;
UPDATE rating_match_players p SET mu = h.mu, sigma = h.sigma, display = h.display
  FROM rating_history h WHERE h.player_id = p.player_id AND h.match_id = p.match_id;

ALTER TABLE rating_match_players ALTER COLUMN mode SET NOT NULL;
DROP TABLE rating_history;
