-- Matchmaking: parties, tickets, and the matches formed from them (docs/matchmaking.md). Times are
-- microseconds since the Unix epoch. Every ticket state lives here, so any replica can pick up a
-- queue where another left it, and a restart loses nothing.

-- A party of two: the leader creates it, the partner joins with the invite code.
CREATE TABLE mm_parties (
  party_id    text PRIMARY KEY,
  leader      text NOT NULL,
  invite_code text NOT NULL UNIQUE,
  created_us  bigint NOT NULL
);

-- The primary key keeps a player in one party at a time; the leader is a member too.
CREATE TABLE mm_party_members (
  player_id text PRIMARY KEY,
  party_id  text NOT NULL REFERENCES mm_parties ON DELETE CASCADE,
  joined_us bigint NOT NULL
);
CREATE INDEX mm_party_members_by_party ON mm_party_members (party_id);

-- waiting -> placing (in a formed match whose table is being created) -> matched; waiting ->
-- cancelled or expired. Only waiting tickets can be cancelled or matched, and both moves are one
-- UPDATE ... WHERE state = 'waiting', so the two can never both win.
CREATE TABLE mm_tickets (
  ticket_id       text PRIMARY KEY,
  -- Ruleset, mode and normalized settings: the queue the ticket waits in.
  queue_key       text NOT NULL,
  -- The caller who enqueued it (a party's leader) and the caller's idempotency key.
  owner           text NOT NULL,
  request_id      text NOT NULL DEFAULT '',
  -- A serialized kahve.v1.GameSettings (normalized) and whether partners play as a team.
  settings        bytea NOT NULL,
  teams           boolean NOT NULL,
  -- The ticket's own longest wait before bots may fill its table; 0: the queue's.
  longest_wait_us bigint NOT NULL,
  state           text NOT NULL
                  CHECK (state IN ('waiting', 'placing', 'matched', 'expired', 'cancelled')),
  enqueued_us     bigint NOT NULL,
  -- When the ticket reached a final state.
  ended_us        bigint,
  match_id        text
);
CREATE UNIQUE INDEX mm_tickets_request ON mm_tickets (owner, request_id) WHERE request_id <> '';
-- A pass reads "the active tickets of queue Q, oldest first"; finished tickets cost it nothing.
CREATE INDEX mm_tickets_active ON mm_tickets (queue_key, enqueued_us)
  WHERE state IN ('waiting', 'placing');
-- Queue statistics read the waits of recently matched tickets.
CREATE INDEX mm_tickets_recent ON mm_tickets (queue_key, ended_us) WHERE state = 'matched';

-- The players of a ticket (one, or a party's two) and, once matched, where each sits. The seat
-- token is useless without that player's own JWT (the table checks both).
CREATE TABLE mm_ticket_players (
  ticket_id  text NOT NULL REFERENCES mm_tickets ON DELETE CASCADE,
  player_id  text NOT NULL,
  -- Order within the party; 0 is the owner.
  position   smallint NOT NULL,
  -- True while the ticket is waiting or placing.
  active     boolean NOT NULL,
  seat       integer,
  seat_token text,
  PRIMARY KEY (ticket_id, player_id)
);
-- One active ticket per player, enforced by the database whatever replica enqueues.
CREATE UNIQUE INDEX mm_ticket_players_one_active ON mm_ticket_players (player_id) WHERE active;

-- A formed match. Written, with its tickets moved to placing, in one transaction before the table
-- is created; the CreateTableRequest is kept so that whoever finishes the placement (this replica
-- after a retry, another after a crash) sends the very same request, which the table service
-- answers idempotently by match id.
CREATE TABLE mm_matches (
  match_id      text PRIMARY KEY,
  queue_key     text NOT NULL,
  state         text NOT NULL CHECK (state IN ('placing', 'placed')),
  -- The host chosen last (table_hosts.host_id).
  host_id       text NOT NULL,
  -- A serialized kahve.v1.CreateTableRequest.
  request       bytea NOT NULL,
  rating_spread double precision NOT NULL,
  created_us    bigint NOT NULL,
  attempts      integer NOT NULL DEFAULT 0,
  last_error    text,
  table_id      text,
  endpoint      text,
  placed_us     bigint
);
CREATE INDEX mm_matches_placing ON mm_matches (queue_key) WHERE state = 'placing';
CREATE INDEX mm_matches_recent ON mm_matches (queue_key, created_us);
