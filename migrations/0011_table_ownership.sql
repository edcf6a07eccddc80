-- Tables move between hosts (docs/table.md, "Ownership"). host_id says which host serves a table
-- and owner_epoch counts the times it changed hands: every claim bumps it, and a host appends to a
-- log only while the row still carries its own id and the epoch it claimed, checked under the
-- row's lock in the appending transaction. So a host that lost a table (it stalled past its lease,
-- or was partitioned away) can never write to it again, whatever it believes.
-- An empty host_id marks a table its host handed off while draining: any host may claim it.
ALTER TABLE table_tables ADD COLUMN owner_epoch bigint NOT NULL DEFAULT 1;
