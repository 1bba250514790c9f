-- Versions of the registry lists (docs/decisions/0083). The API keeps each organization's vehicle
-- and driver lists indexed in memory (search text, filters, sort orders) and trusts that index only
-- while the list's version here is the one it was built at. Every change to what a list filters,
-- searches or sorts on goes through these triggers, in the writing transaction, so a reader sees
-- the new version exactly when it sees the new rows. Versions come from a sequence, not a counter:
-- a rolled-back transaction's number is never handed out again, so an index read inside a
-- transaction that later rolled back can never match a committed version.
-- No foreign key to organizations: deleting an organization cascades to its assets, whose
-- triggers write here in that same statement.
CREATE SEQUENCE IF NOT EXISTS list_version_seq;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS list_versions (
  organization_id uuid NOT NULL,
  list text NOT NULL,
  version bigint NOT NULL,
  PRIMARY KEY (organization_id, list)
);--> statement-breakpoint
-- Statement-level, over the transition table: a 5,000-row CSV import bumps once, not 5,000 times.
CREATE OR REPLACE FUNCTION bump_list_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO list_versions (organization_id, list, version)
  SELECT c.organization_id, TG_ARGV[0], nextval('list_version_seq')
  FROM (SELECT DISTINCT organization_id FROM changed) c
  ON CONFLICT (organization_id, list) DO UPDATE SET version = excluded.version;
  RETURN NULL;
END $$;--> statement-breakpoint
-- Group membership of drivers: group_members also holds users, which no registry list shows.
CREATE OR REPLACE FUNCTION bump_driver_groups_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO list_versions (organization_id, list, version)
  SELECT c.organization_id, 'drivers', nextval('list_version_seq')
  FROM (SELECT DISTINCT organization_id FROM changed WHERE member_type = 'DRIVER') c
  ON CONFLICT (organization_id, list) DO UPDATE SET version = excluded.version;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER assets_list_version_ins AFTER INSERT ON assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('assets');--> statement-breakpoint
CREATE TRIGGER assets_list_version_upd AFTER UPDATE ON assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('assets');--> statement-breakpoint
CREATE TRIGGER assets_list_version_del AFTER DELETE ON assets REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('assets');--> statement-breakpoint
CREATE TRIGGER group_assets_list_version_ins AFTER INSERT ON group_assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('assets');--> statement-breakpoint
CREATE TRIGGER group_assets_list_version_upd AFTER UPDATE ON group_assets REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('assets');--> statement-breakpoint
CREATE TRIGGER group_assets_list_version_del AFTER DELETE ON group_assets REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('assets');--> statement-breakpoint
CREATE TRIGGER drivers_list_version_ins AFTER INSERT ON drivers REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('drivers');--> statement-breakpoint
CREATE TRIGGER drivers_list_version_upd AFTER UPDATE ON drivers REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('drivers');--> statement-breakpoint
CREATE TRIGGER drivers_list_version_del AFTER DELETE ON drivers REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_list_version('drivers');--> statement-breakpoint
CREATE TRIGGER group_members_list_version_ins AFTER INSERT ON group_members REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_driver_groups_version();--> statement-breakpoint
CREATE TRIGGER group_members_list_version_upd AFTER UPDATE ON group_members REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_driver_groups_version();--> statement-breakpoint
CREATE TRIGGER group_members_list_version_del AFTER DELETE ON group_members REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_driver_groups_version();
