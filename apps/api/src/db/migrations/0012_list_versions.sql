-- Versions of the registry lists (docs/decisions/0083). The API keeps each organization's vehicle
-- and driver lists in memory (presented rows, search text, filters, sort orders) and trusts them
-- only while the list's version here is the one they were built at. Every change to anything a
-- list row shows, filters, searches or sorts on goes through these triggers, in the writing
-- transaction, so a reader sees the new version exactly when it sees the new rows. Versions come
-- from a sequence, not a counter: a rolled-back transaction's number is never handed out again.
-- No foreign key to organizations: deleting an organization cascades to its assets, whose
-- triggers write here in that same statement.
-- The one value a list row shows that changes without a version bump is a device's last_seen_at
-- (every position updates it): the API reads it with the version on each page.
CREATE SEQUENCE IF NOT EXISTS list_version_seq;--> statement-breakpoint
CREATE TABLE IF NOT EXISTS list_versions (
  organization_id uuid NOT NULL,
  list text NOT NULL,
  version bigint NOT NULL,
  PRIMARY KEY (organization_id, list)
);--> statement-breakpoint
-- Statement-level, over the transition table `changed`, for the tables bulk writes touch: a
-- 5,000-row CSV import bumps once, not 5,000 times. The arguments name the lists to bump.
CREATE OR REPLACE FUNCTION bump_list_version() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
  FOREACH l IN ARRAY TG_ARGV LOOP
    INSERT INTO list_versions (organization_id, list, version)
    SELECT c.organization_id, l, nextval('list_version_seq')
    FROM (SELECT DISTINCT organization_id FROM changed WHERE organization_id IS NOT NULL) c
    ON CONFLICT (organization_id, list) DO UPDATE SET version = excluded.version;
  END LOOP;
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
-- Row-level, for rare changes to linked records a list row shows (a driver's name on a vehicle,
-- a vehicle's unit on a driver, a device, a trailer, a group's or an account's name), each guarded
-- by a WHEN clause so that other updates (a device's last_seen_at) cost no function call.
CREATE OR REPLACE FUNCTION bump_list_version_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE l text; org uuid;
BEGIN
  FOREACH l IN ARRAY TG_ARGV LOOP
    FOREACH org IN ARRAY ARRAY[CASE WHEN TG_OP <> 'INSERT' THEN OLD.organization_id END, CASE WHEN TG_OP <> 'DELETE' THEN NEW.organization_id END] LOOP
      CONTINUE WHEN org IS NULL;
      INSERT INTO list_versions (organization_id, list, version) VALUES (org, l, nextval('list_version_seq'))
      ON CONFLICT (organization_id, list) DO UPDATE SET version = excluded.version;
    END LOOP;
  END LOOP;
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
CREATE TRIGGER group_members_list_version_del AFTER DELETE ON group_members REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_driver_groups_version();--> statement-breakpoint
-- A vehicle row shows its driver's name; a driver row shows their vehicle's unit and type.
CREATE TRIGGER drivers_name_assets_version AFTER UPDATE ON drivers FOR EACH ROW WHEN (OLD.first_name IS DISTINCT FROM NEW.first_name OR OLD.last_name IS DISTINCT FROM NEW.last_name) EXECUTE FUNCTION bump_list_version_row('assets');--> statement-breakpoint
CREATE TRIGGER assets_driver_link_version_upd AFTER UPDATE ON assets FOR EACH ROW WHEN (OLD.current_driver_id IS DISTINCT FROM NEW.current_driver_id OR (NEW.current_driver_id IS NOT NULL AND (OLD.unit_number IS DISTINCT FROM NEW.unit_number OR OLD.type IS DISTINCT FROM NEW.type))) EXECUTE FUNCTION bump_list_version_row('drivers');--> statement-breakpoint
CREATE TRIGGER assets_driver_link_version_ins AFTER INSERT ON assets FOR EACH ROW WHEN (NEW.current_driver_id IS NOT NULL) EXECUTE FUNCTION bump_list_version_row('drivers');--> statement-breakpoint
CREATE TRIGGER assets_driver_link_version_del AFTER DELETE ON assets FOR EACH ROW WHEN (OLD.current_driver_id IS NOT NULL) EXECUTE FUNCTION bump_list_version_row('drivers');--> statement-breakpoint
-- A vehicle row shows its paired device (not its last_seen_at, read live) and its trailers or towing vehicle.
CREATE TRIGGER gateways_assets_version_ins AFTER INSERT ON gateways FOR EACH ROW WHEN (NEW.asset_id IS NOT NULL) EXECUTE FUNCTION bump_list_version_row('assets');--> statement-breakpoint
CREATE TRIGGER gateways_assets_version_upd AFTER UPDATE ON gateways FOR EACH ROW WHEN (OLD.asset_id IS DISTINCT FROM NEW.asset_id OR ((OLD.asset_id IS NOT NULL OR NEW.asset_id IS NOT NULL) AND (OLD.name IS DISTINCT FROM NEW.name OR OLD.unique_id IS DISTINCT FROM NEW.unique_id OR OLD.organization_id IS DISTINCT FROM NEW.organization_id))) EXECUTE FUNCTION bump_list_version_row('assets');--> statement-breakpoint
CREATE TRIGGER gateways_assets_version_del AFTER DELETE ON gateways FOR EACH ROW WHEN (OLD.asset_id IS NOT NULL) EXECUTE FUNCTION bump_list_version_row('assets');--> statement-breakpoint
CREATE TRIGGER trailer_attachments_version AFTER INSERT OR UPDATE OR DELETE ON trailer_attachments FOR EACH ROW EXECUTE FUNCTION bump_list_version_row('assets');--> statement-breakpoint
-- Both lists show group names; a driver row shows the e-mail of its sign-in account.
CREATE TRIGGER groups_name_version AFTER UPDATE ON groups FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION bump_list_version_row('assets', 'drivers');--> statement-breakpoint
CREATE TRIGGER users_email_drivers_version AFTER UPDATE ON users FOR EACH ROW WHEN (OLD.email IS DISTINCT FROM NEW.email) EXECUTE FUNCTION bump_list_version_row('drivers');
