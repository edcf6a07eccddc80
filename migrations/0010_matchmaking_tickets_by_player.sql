-- GetMyTicket reads a player's newest tickets, newest first, from an index per player, so it
-- looks at a bounded number of rows however many games the player has played (docs/matchmaking.md,
-- "Looking up"): each player row carries its ticket's enqueue time. Rows written by a replica
-- older than this migration (during a rolling upgrade) have none and sort last.
ALTER TABLE mm_ticket_players ADD COLUMN enqueued_us bigint;
UPDATE mm_ticket_players p SET enqueued_us = t.enqueued_us
  FROM mm_tickets t WHERE t.ticket_id = p.ticket_id;
CREATE INDEX mm_ticket_players_by_player
  ON mm_ticket_players (player_id, enqueued_us DESC NULLS LAST);
