-- Issue 34 (docs/deploy.md 7.3): a logical shard move on Citus (shard_transfer_mode 'auto' or
-- 'force_logical') copies a shard group by logical replication and needs a replica identity on
-- every table of the group to replay an UPDATE or DELETE; 'auto' refuses the whole move otherwise.
-- These two have no key and nothing in their rows is unique by design (rows are deleted and
-- rewritten per vehicle and day), so they replicate the whole old row. Outside a move that costs
-- only WAL, and only with wal_level = logical (a DELETE logs the whole old row); during a move,
-- PostgreSQL 15 finds each deleted row on the target by a scan of its shard. Citus propagates the
-- ALTER to every shard and new shards inherit it; organization-keys.test.ts checks that every
-- table has a primary key or a replica identity. One statement a query: Citus 13.2 refused the two
-- ALTERs sent to the workers in one query string ("cannot insert multiple commands into a prepared
-- statement").
ALTER TABLE "ifta_crossings" REPLICA IDENTITY FULL;--> statement-breakpoint
ALTER TABLE "ifta_flagged_segments" REPLICA IDENTITY FULL;
