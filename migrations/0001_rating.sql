-- Rating service: match history and ratings per (player, ruleset, mode).
-- Times are microseconds since the Unix epoch (bigint): exact, and what cursors compare.
-- mode: 1 solo, 2 teams (kahve.v1.MatchMode).

CREATE TABLE rating_matches (
  match_id       text PRIMARY KEY,
  ruleset        text NOT NULL,
  mode           smallint NOT NULL,
  started_us     bigint NOT NULL,
  ended_us       bigint NOT NULL,
  rated          boolean NOT NULL,
  -- SHA-256 of the request as first recorded: a repeat must carry the same content.
  request_sha256 bytea NOT NULL,
  -- kahve.v1.MatchRecord as GetMatch returns it (participants, rounds, rating changes).
  record         bytea NOT NULL,
  recorded_at    timestamptz NOT NULL DEFAULT now()
);

-- One row per human participant: the index behind ListMatches (newest first, cursor on
-- (ended_us, match_id)). No foreign key to rating_matches: rows are only ever written together
-- with their match, by rating_record_match in one statement, and never deleted; the key's check
-- cost a sixth of RecordMatch's throughput (measured with kahve load rating).
CREATE TABLE rating_match_players (
  player_id text NOT NULL,
  ended_us  bigint NOT NULL,
  match_id  text NOT NULL,
  ruleset   text NOT NULL,
  PRIMARY KEY (player_id, ended_us, match_id)
);
CREATE INDEX rating_match_players_by_ruleset
  ON rating_match_players (player_id, ruleset, ended_us, match_id);

CREATE TABLE ratings (
  player_id      text NOT NULL,
  ruleset        text NOT NULL,
  mode           smallint NOT NULL,
  mu             double precision NOT NULL,
  sigma          double precision NOT NULL,
  display        double precision NOT NULL,
  games          integer NOT NULL,
  last_played_us bigint NOT NULL,
  -- (ruleset, mode) first, as in the leaderboard index: for a lookup of players the key then
  -- always matches more columns than that index, so no state of the statistics can make the
  -- planner scan a whole leaderboard instead.
  PRIMARY KEY (ruleset, mode, player_id)
);
-- Leaderboards: by display rating, best first (ties, rare, are sorted by player id on top). No
-- player_id column: with one, the planner sometimes took this index for player lookups and
-- scanned a whole leaderboard to find four rows.
CREATE INDEX ratings_leaderboard ON ratings (ruleset, mode, display DESC);

CREATE TABLE rating_history (
  player_id text NOT NULL,
  ruleset   text NOT NULL,
  mode      smallint NOT NULL,
  at_us     bigint NOT NULL,
  match_id  text NOT NULL,
  mu        double precision NOT NULL,
  sigma     double precision NOT NULL,
  display   double precision NOT NULL,
  PRIMARY KEY (player_id, ruleset, mode, at_us, match_id)
);
