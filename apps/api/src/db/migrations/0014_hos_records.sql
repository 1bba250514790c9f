CREATE TABLE "hos_events" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"driver_id" uuid,
	"vehicle_id" uuid,
	"sequence_id" integer NOT NULL,
	"event_type" smallint NOT NULL,
	"event_code" smallint NOT NULL,
	"record_status" smallint DEFAULT 1 NOT NULL,
	"record_origin" smallint NOT NULL,
	"event_time" timestamp with time zone NOT NULL,
	"log_date" date NOT NULL,
	"latitude" double precision,
	"longitude" double precision,
	"location_description" text,
	"odometer_m" double precision,
	"engine_hours" double precision,
	"annotation" text,
	"replaces_event_id" uuid,
	"created_by_user_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "hos_logs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"driver_id" uuid NOT NULL,
	"log_date" date NOT NULL,
	"certified_at" timestamp with time zone,
	"certified_by_user_id" uuid,
	"certification_count" integer DEFAULT 0 NOT NULL,
	"shipping_documents" text[] DEFAULT '{}'::text[] NOT NULL,
	"trailer_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"co_driver_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "hos_events" ADD CONSTRAINT "hos_events_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hos_events" ADD CONSTRAINT "hos_events_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hos_events" ADD CONSTRAINT "hos_events_vehicle_id_assets_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."assets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hos_events" ADD CONSTRAINT "hos_events_replaces_event_id_hos_events_id_fk" FOREIGN KEY ("replaces_event_id") REFERENCES "public"."hos_events"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hos_events" ADD CONSTRAINT "hos_events_created_by_user_id_users_id_fk" FOREIGN KEY ("created_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hos_logs" ADD CONSTRAINT "hos_logs_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hos_logs" ADD CONSTRAINT "hos_logs_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hos_logs" ADD CONSTRAINT "hos_logs_certified_by_user_id_users_id_fk" FOREIGN KEY ("certified_by_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "hos_logs" ADD CONSTRAINT "hos_logs_co_driver_id_drivers_id_fk" FOREIGN KEY ("co_driver_id") REFERENCES "public"."drivers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "hos_events_driver_active_idx" ON "hos_events" USING btree ("driver_id","event_time") WHERE "hos_events"."record_status" = 1;--> statement-breakpoint
CREATE INDEX "hos_events_org_time_idx" ON "hos_events" USING btree ("organization_id","event_time") WHERE "hos_events"."record_status" = 1;--> statement-breakpoint
CREATE INDEX "hos_events_org_day_idx" ON "hos_events" USING btree ("organization_id","log_date");--> statement-breakpoint
CREATE UNIQUE INDEX "hos_events_driver_seq_uq" ON "hos_events" USING btree ("driver_id","sequence_id");--> statement-breakpoint
CREATE INDEX "hos_events_replaces_idx" ON "hos_events" USING btree ("replaces_event_id") WHERE "hos_events"."replaces_event_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "hos_logs_driver_day_uq" ON "hos_logs" USING btree ("driver_id","log_date");--> statement-breakpoint
CREATE INDEX "hos_logs_org_day_idx" ON "hos_logs" USING btree ("organization_id","log_date");--> statement-breakpoint
-- HOS_IMPORT and HOS_EDIT are new organization permissions: existing built-in Administrator roles get them as new ones do.
UPDATE "roles" SET "permissions" = array_append("permissions", 'HOS_IMPORT') WHERE "built_in" AND NOT ('HOS_IMPORT' = ANY("permissions"));--> statement-breakpoint
UPDATE "roles" SET "permissions" = array_append("permissions", 'HOS_EDIT') WHERE "built_in" AND NOT ('HOS_EDIT' = ANY("permissions"));
