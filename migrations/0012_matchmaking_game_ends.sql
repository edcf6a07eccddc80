-- Matchmaking stops reading the table service's tables (services meet only over gRPC): whether
-- the game of a placed match has ended is what the table service answers to GetMatchStates,
-- remembered here once it says so (docs/matchmaking.md, "Request ids"). A game, once over, stays
-- over, so the flag only ever goes from false to true.
ALTER TABLE mm_matches ADD COLUMN game_over boolean NOT NULL DEFAULT false;

-- As in 0009, with the game's end read from mm_matches.game_over. Matchmaking asks the table
-- service about a ticket's match right before this decides (the Enqueue of a known request id,
-- GetMyTicket); until it hears that the game ended, the match counts as running.
CREATE OR REPLACE FUNCTION mm_ticket_in_play(state text, match_id text) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT $1 IN ('waiting', 'placing')
      OR ($1 = 'matched' AND EXISTS (SELECT 1 FROM mm_matches m
                                      WHERE m.match_id = $2 AND NOT m.game_over))
$$;
