CREATE TABLE "hos_driver_versions" (
	"driver_id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"version" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hos_driver_versions" ADD CONSTRAINT "hos_driver_versions_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hos_driver_versions_org_idx" ON "hos_driver_versions" USING btree ("organization_id","version");--> statement-breakpoint
CREATE INDEX "hos_events_driver_type_active_idx" ON "hos_events" USING btree ("driver_id","event_type","event_time") WHERE "hos_events"."record_status" = 1;--> statement-breakpoint
CREATE INDEX "hos_logs_org_facts_idx" ON "hos_logs" USING btree ("organization_id","log_date") WHERE "hos_logs"."co_driver_id" is not null or "hos_logs"."deferral_declared_at" is not null;--> statement-breakpoint
-- Drivers' HoS versions (decision 0099). Every statement that writes hos_events takes a new version
-- for each driver it touched, in the writing transaction, so a reader that sees the new rows sees
-- the new version. On conflict the version is taken from the sequence again at update time, after
-- the row lock is held: a driver's committed version only ever grows, whatever order concurrent
-- writers commit in, so the organization's sum of versions changes with every commit.
CREATE OR REPLACE FUNCTION bump_hos_driver_versions() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO hos_driver_versions AS v (driver_id, organization_id, version)
  SELECT c.driver_id, c.organization_id, nextval('list_version_seq')
  FROM (SELECT DISTINCT driver_id, organization_id FROM changed WHERE driver_id IS NOT NULL ORDER BY driver_id) c
  ON CONFLICT (driver_id) DO UPDATE SET version = nextval('list_version_seq');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER hos_events_version_ins AFTER INSERT ON hos_events REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_hos_driver_versions();--> statement-breakpoint
CREATE TRIGGER hos_events_version_upd AFTER UPDATE ON hos_events REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_hos_driver_versions();--> statement-breakpoint
CREATE TRIGGER hos_events_version_del AFTER DELETE ON hos_events REFERENCING OLD TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION bump_hos_driver_versions();--> statement-breakpoint
-- A log row's co-driver (C7) and declared deferral (C6) change the engine's options: the driver's
-- version moves with them. Row-level with WHEN guards: certifying or a shipping document costs nothing.
CREATE OR REPLACE FUNCTION bump_hos_driver_version_row() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r hos_logs;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  INSERT INTO hos_driver_versions (driver_id, organization_id, version) VALUES (r.driver_id, r.organization_id, nextval('list_version_seq'))
  ON CONFLICT (driver_id) DO UPDATE SET version = nextval('list_version_seq');
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER hos_logs_facts_version_ins AFTER INSERT ON hos_logs FOR EACH ROW WHEN (NEW.co_driver_id IS NOT NULL OR NEW.deferral_declared_at IS NOT NULL) EXECUTE FUNCTION bump_hos_driver_version_row();--> statement-breakpoint
CREATE TRIGGER hos_logs_facts_version_upd AFTER UPDATE ON hos_logs FOR EACH ROW WHEN (OLD.co_driver_id IS DISTINCT FROM NEW.co_driver_id OR OLD.deferral_declared_at IS DISTINCT FROM NEW.deferral_declared_at) EXECUTE FUNCTION bump_hos_driver_version_row();--> statement-breakpoint
CREATE TRIGGER hos_logs_facts_version_del AFTER DELETE ON hos_logs FOR EACH ROW WHEN (OLD.co_driver_id IS NOT NULL OR OLD.deferral_declared_at IS NOT NULL) EXECUTE FUNCTION bump_hos_driver_version_row();--> statement-breakpoint
-- Drivers that already have records.
INSERT INTO hos_driver_versions (driver_id, organization_id, version)
SELECT driver_id, organization_id, nextval('list_version_seq') FROM (SELECT DISTINCT driver_id, organization_id FROM hos_events WHERE driver_id IS NOT NULL) e;
