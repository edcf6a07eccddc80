-- Records a rated or unrated match in one statement (plans cached per session). The caller read
-- each rated player's games count (0 and no row for a new player) and computed the new ratings
-- from that read, either optimistically or holding the rows locked. A count that moved since (a
-- concurrent match of the same player) fails the whole call with serialization_failure (40001):
-- nothing is written and the caller reads again. A match id already stored fails with
-- unique_violation (23505), which the caller answers as a repeat.
CREATE FUNCTION rating_record_match(
  p_match_id text, p_ruleset text, p_mode smallint, p_started_us bigint, p_ended_us bigint,
  p_rated boolean, p_request_sha256 bytea, p_record bytea,
  -- every human participant (match history)
  p_players text[],
  -- the rated players: their games count as read, and their new ratings
  p_rated_players text[], p_games_read integer[],
  p_mu double precision[], p_sigma double precision[], p_display double precision[])
RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  i integer;
  changed integer;
BEGIN
  INSERT INTO rating_matches (match_id, ruleset, mode, started_us, ended_us, rated,
                              request_sha256, record)
  VALUES (p_match_id, p_ruleset, p_mode, p_started_us, p_ended_us, p_rated,
          p_request_sha256, p_record);

  INSERT INTO rating_match_players (player_id, ended_us, match_id, ruleset)
  SELECT player, p_ended_us, p_match_id, p_ruleset FROM unnest(p_players) AS player;

  FOR i IN 1 .. coalesce(array_length(p_rated_players, 1), 0) LOOP
    IF p_games_read[i] = 0 THEN
      INSERT INTO ratings (ruleset, mode, player_id, mu, sigma, display, games, last_played_us)
      VALUES (p_ruleset, p_mode, p_rated_players[i], p_mu[i], p_sigma[i], p_display[i], 1,
              p_ended_us)
      ON CONFLICT DO NOTHING;
    ELSE
      UPDATE ratings
         SET mu = p_mu[i], sigma = p_sigma[i], display = p_display[i], games = games + 1,
             last_played_us = p_ended_us
       WHERE ruleset = p_ruleset AND mode = p_mode AND player_id = p_rated_players[i]
         AND games = p_games_read[i];
    END IF;
    GET DIAGNOSTICS changed = ROW_COUNT;
    IF changed = 0 THEN
      RAISE EXCEPTION 'the rating of % changed concurrently', p_rated_players[i]
        USING ERRCODE = 'serialization_failure';
    END IF;
  END LOOP;

  INSERT INTO rating_history (player_id, ruleset, mode, at_us, match_id, mu, sigma, display)
  SELECT player, p_ruleset, p_mode, p_ended_us, p_match_id, mu, sigma, display
    FROM unnest(p_rated_players, p_mu, p_sigma, p_display) AS r(player, mu, sigma, display);
END;
$$;
