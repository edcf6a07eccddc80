-- An Enqueue request id stays bound to its ticket while the ticket is in play, and is free once
-- the ticket is over (docs/matchmaking.md, "Request ids").

-- Whether a ticket (its state and match id) is in play: waiting or placing, or matched to a table
-- whose game has not ended (the table service sets table_tables.finished_us in the transaction
-- that logs the end). A matched ticket whose table row is gone counts as over: there is no game
-- to go back to. Once over, a ticket never comes back into play.
CREATE FUNCTION mm_ticket_in_play(state text, match_id text) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT $1 IN ('waiting', 'placing')
      OR ($1 = 'matched' AND EXISTS (SELECT 1 FROM table_tables g
                                      WHERE g.match_id = $2 AND g.finished_us IS NULL))
$$;

-- The next Enqueue with the request id of a ticket that is over moves the id here (request_id
-- becomes '') in the transaction that stores the new ticket, so mm_tickets_request lets the new
-- ticket take it, and the old row still says which request made it.
ALTER TABLE mm_tickets ADD COLUMN released_request_id text;
