-- Table service: live tables, their append-only event logs, the outbox of finished matches for the
-- rating service, and the registry of table hosts. Times are microseconds since the Unix epoch.
-- A table's state is a pure function of its log, so these rows are everything a host needs to
-- rebuild a table after a crash or to take it over.

CREATE TABLE table_tables (
  table_id    text PRIMARY KEY,
  -- The host that owns the table (table_hosts.host_id; no foreign key: a table outlives the row
  -- of a host that is gone, which is exactly when another host needs to find it).
  host_id     text NOT NULL,
  -- One match makes one table: a retried CreateTable finds the first table instead of a second.
  match_id    text NOT NULL UNIQUE,
  ruleset     text NOT NULL,
  created_us  bigint NOT NULL,
  -- Null while the game runs; set in the transaction that appends the last entry.
  finished_us bigint,
  -- The highest seq in table_log: lets a reader see how long a log is without scanning it.
  last_seq    bigint NOT NULL DEFAULT 0
)
-- Every commit that appends to a table rewrites its row (last_seq). Free room on each page lets
-- those updates stay on the page (HOT: no index writes, quick cleanup).
WITH (fillfactor = 70);
-- Start-up replays "the unfinished tables of host X". Partial, so the finished tables (over time
-- nearly all of them) cost the index nothing.
CREATE INDEX table_tables_unfinished_by_host ON table_tables (host_id) WHERE finished_us IS NULL;

-- Append-only: seq 0 is the table's creation (settings, seed, seats), then one row per accepted
-- move or seat change. entry is a serialized protobuf the table service owns. No foreign key to
-- table_tables: entries are only written by the event log, which checks the table in the same
-- statement, and the key's check would cost every one of the thousands of appends per second.
CREATE TABLE table_log (
  table_id text NOT NULL,
  seq      bigint NOT NULL,
  entry    bytea NOT NULL,
  PRIMARY KEY (table_id, seq)
);

-- Results on their way to the rating service's RecordMatch, written in the same transaction as
-- the table's last entry, so a result is never lost nor sent for a game that did not end.
-- Delivered rows stay (delivered_us set): RecordMatch is idempotent by match id, the row is the
-- proof it was acknowledged.
CREATE TABLE table_outbox (
  match_id        text PRIMARY KEY,
  -- A serialized kahve.v1.RecordMatchRequest.
  payload         bytea NOT NULL,
  created_us      bigint NOT NULL,
  attempts        integer NOT NULL DEFAULT 0,
  next_attempt_us bigint NOT NULL,
  last_error      text,
  delivered_us    bigint
);
-- The relay asks for "pending rows due now, oldest first"; delivered rows never enter the index.
CREATE INDEX table_outbox_due ON table_outbox (next_attempt_us) WHERE delivered_us IS NULL;

-- Table hosts announce themselves for matchmaking, which places new tables on live hosts.
-- heartbeat_us comes from the database's clock (as does the reader's "now"), so hosts with skewed
-- clocks still compare fairly.
CREATE TABLE table_hosts (
  host_id      text PRIMARY KEY,
  -- host:port of the host's gRPC server, as clients should dial it.
  endpoint     text NOT NULL,
  live_tables  integer NOT NULL,
  heartbeat_us bigint NOT NULL,
  -- A draining host finishes its tables but takes no new ones.
  draining     boolean NOT NULL DEFAULT false
);
