CREATE TABLE "hos_edit_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"driver_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"state" text DEFAULT 'PENDING' NOT NULL,
	"log_date" date NOT NULL,
	"annotation" text,
	"requested_by_user_id" uuid,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by_user_id" uuid
);
--> statement-breakpoint
CREATE TABLE "hos_unidentified_annotations" (
	"segment_event_id" uuid PRIMARY KEY NOT NULL,
	"organization_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"annotated_by_user_id" uuid,
	"annotated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "roles" ADD COLUMN "system_role" text;--> statement-breakpoint
ALTER TABLE "hos_events" ADD COLUMN "edit_request_id" uuid;--> statement-breakpoint
ALTER TABLE "hos_events" ADD COLUMN "diagnostic_code" text;--> statement-breakpoint
ALTER TABLE "hos_edit_requests" ADD CONSTRAINT "hos_edit_requests_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hos_edit_requests" ADD CONSTRAINT "hos_edit_requests_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hos_edit_requests" ADD CONSTRAINT "hos_edit_requests_requested_by_user_id_users_id_fk" FOREIGN KEY ("requested_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hos_edit_requests" ADD CONSTRAINT "hos_edit_requests_decided_by_user_id_users_id_fk" FOREIGN KEY ("decided_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hos_unidentified_annotations" ADD CONSTRAINT "hos_unidentified_annotations_segment_event_id_hos_events_id_fk" FOREIGN KEY ("segment_event_id") REFERENCES "public"."hos_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hos_unidentified_annotations" ADD CONSTRAINT "hos_unidentified_annotations_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hos_unidentified_annotations" ADD CONSTRAINT "hos_unidentified_annotations_annotated_by_user_id_users_id_fk" FOREIGN KEY ("annotated_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hos_edit_requests_driver_idx" ON "hos_edit_requests" USING btree ("driver_id","state","requested_at");--> statement-breakpoint
CREATE INDEX "hos_edit_requests_org_idx" ON "hos_edit_requests" USING btree ("organization_id","requested_at");--> statement-breakpoint
ALTER TABLE "hos_events" ADD CONSTRAINT "hos_events_edit_request_id_hos_edit_requests_id_fk" FOREIGN KEY ("edit_request_id") REFERENCES "public"."hos_edit_requests"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "roles_org_system_uq" ON "roles" USING btree ("organization_id","system_role") WHERE "roles"."system_role" is not null;--> statement-breakpoint
CREATE INDEX "hos_events_request_idx" ON "hos_events" USING btree ("edit_request_id") WHERE "hos_events"."edit_request_id" is not null;--> statement-breakpoint
CREATE INDEX "hos_events_org_unidentified_idx" ON "hos_events" USING btree ("organization_id","event_time") WHERE "hos_events"."driver_id" is null;--> statement-breakpoint
CREATE INDEX "hos_events_diagnostics_idx" ON "hos_events" USING btree ("organization_id","vehicle_id","diagnostic_code","event_time") WHERE "hos_events"."event_type" = 7;--> statement-breakpoint
-- The built-in roles (decision 0111): the existing built-in role of every organization is its Administrator,
-- which gets the two new codes as new organizations' administrators do.
UPDATE "roles" SET "system_role" = 'ADMIN' WHERE "built_in";--> statement-breakpoint
UPDATE "roles" SET "permissions" = array_append("permissions", 'HOS_SELF_READ') WHERE "system_role" = 'ADMIN' AND NOT ('HOS_SELF_READ' = ANY("permissions"));--> statement-breakpoint
UPDATE "roles" SET "permissions" = array_append("permissions", 'HOS_SELF_WRITE') WHERE "system_role" = 'ADMIN' AND NOT ('HOS_SELF_WRITE' = ANY("permissions"));--> statement-breakpoint
-- A built-in Driver role in every organization; named "Driver (ELD)" where a custom role is already called Driver.
INSERT INTO "roles" ("organization_id", "name", "description", "permissions", "built_in", "system_role")
SELECT o."id",
       CASE WHEN EXISTS (SELECT 1 FROM "roles" r WHERE r."organization_id" = o."id" AND lower(r."name") = 'driver') THEN 'Driver (ELD)' ELSE 'Driver' END,
       'A driver''s own hours of service: duty status, certification, edit approval, roadside inspection',
       ARRAY['HOS_SELF_READ', 'HOS_SELF_WRITE', 'USER_READ', 'ORG_READ']::text[], true, 'DRIVER'
FROM "organizations" o
WHERE NOT EXISTS (SELECT 1 FROM "roles" r WHERE r."organization_id" = o."id" AND r."system_role" = 'DRIVER');--> statement-breakpoint
-- The signed-in user object names the driver record an account signs in for: linking or unlinking a
-- driver changes the current user of both accounts on every instance (as 0002 does for users).
CREATE OR REPLACE FUNCTION notify_driver_link_change() RETURNS trigger AS $$
BEGIN
  IF TG_OP <> 'INSERT' AND OLD.user_id IS NOT NULL THEN PERFORM pg_notify('auth_change', OLD.user_id::text); END IF;
  IF TG_OP <> 'DELETE' AND NEW.user_id IS NOT NULL THEN PERFORM pg_notify('auth_change', NEW.user_id::text); END IF;
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;--> statement-breakpoint
CREATE TRIGGER drivers_link_auth_change AFTER INSERT OR DELETE ON drivers FOR EACH ROW EXECUTE FUNCTION notify_driver_link_change();--> statement-breakpoint
CREATE TRIGGER drivers_link_auth_change_upd AFTER UPDATE ON drivers FOR EACH ROW WHEN (OLD.user_id IS DISTINCT FROM NEW.user_id) EXECUTE FUNCTION notify_driver_link_change();
