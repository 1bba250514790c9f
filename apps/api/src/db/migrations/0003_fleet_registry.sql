CREATE TABLE "asset_driver_assignments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"asset_id" uuid NOT NULL,
	"driver_id" uuid NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "assets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"type" text NOT NULL,
	"unit_number" text NOT NULL,
	"vin" text,
	"make" text,
	"model" text,
	"year" integer,
	"plate" text,
	"plate_state" text,
	"fuel_type" text,
	"ifta_qualified" boolean DEFAULT true NOT NULL,
	"odometer_m" double precision,
	"trailer_type" text,
	"length_m" double precision,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"current_driver_id" uuid,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "device_models" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"manufacturer" text,
	"protocol" text DEFAULT 'osmand' NOT NULL,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "drivers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"phone" text,
	"employee_id" text,
	"license_number" text,
	"license_state" text,
	"license_class" text,
	"license_expiry" date,
	"home_time_zone" text DEFAULT 'America/Chicago' NOT NULL,
	"ruleset" text DEFAULT 'US_PROPERTY_70_8' NOT NULL,
	"short_haul_150" boolean DEFAULT false NOT NULL,
	"sixteen_hour" boolean DEFAULT false NOT NULL,
	"personal_conveyance_allowed" boolean DEFAULT false NOT NULL,
	"yard_moves_allowed" boolean DEFAULT false NOT NULL,
	"eld_exempt" boolean DEFAULT false NOT NULL,
	"eld_exempt_reason" text,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"user_id" uuid,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gateway_pairings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"gateway_id" uuid NOT NULL,
	"asset_id" uuid NOT NULL,
	"paired_at" timestamp with time zone DEFAULT now() NOT NULL,
	"unpaired_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "gateways" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"unique_id" text NOT NULL,
	"name" text NOT NULL,
	"device_model_id" uuid,
	"phone" text,
	"firmware" text,
	"status" text DEFAULT 'ACTIVE' NOT NULL,
	"asset_id" uuid,
	"ingest_token_hash" text,
	"last_seen_at" timestamp with time zone,
	"notes" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "group_assets" (
	"group_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"asset_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_assets_group_id_asset_id_pk" PRIMARY KEY("group_id","asset_id")
);
--> statement-breakpoint
CREATE TABLE "group_members" (
	"group_id" uuid NOT NULL,
	"organization_id" uuid NOT NULL,
	"member_type" text NOT NULL,
	"member_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "group_members_group_id_member_type_member_id_pk" PRIMARY KEY("group_id","member_type","member_id")
);
--> statement-breakpoint
CREATE TABLE "groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"name" text NOT NULL,
	"description" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "trailer_attachments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"organization_id" uuid NOT NULL,
	"vehicle_id" uuid NOT NULL,
	"trailer_id" uuid NOT NULL,
	"attached_at" timestamp with time zone DEFAULT now() NOT NULL,
	"detached_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "asset_driver_assignments" ADD CONSTRAINT "asset_driver_assignments_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_driver_assignments" ADD CONSTRAINT "asset_driver_assignments_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "asset_driver_assignments" ADD CONSTRAINT "asset_driver_assignments_driver_id_drivers_id_fk" FOREIGN KEY ("driver_id") REFERENCES "public"."drivers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "assets" ADD CONSTRAINT "assets_current_driver_id_drivers_id_fk" FOREIGN KEY ("current_driver_id") REFERENCES "public"."drivers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drivers" ADD CONSTRAINT "drivers_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "drivers" ADD CONSTRAINT "drivers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_pairings" ADD CONSTRAINT "gateway_pairings_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_pairings" ADD CONSTRAINT "gateway_pairings_gateway_id_gateways_id_fk" FOREIGN KEY ("gateway_id") REFERENCES "public"."gateways"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateway_pairings" ADD CONSTRAINT "gateway_pairings_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateways" ADD CONSTRAINT "gateways_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateways" ADD CONSTRAINT "gateways_device_model_id_device_models_id_fk" FOREIGN KEY ("device_model_id") REFERENCES "public"."device_models"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gateways" ADD CONSTRAINT "gateways_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_assets" ADD CONSTRAINT "group_assets_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_assets" ADD CONSTRAINT "group_assets_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_assets" ADD CONSTRAINT "group_assets_asset_id_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "group_members" ADD CONSTRAINT "group_members_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trailer_attachments" ADD CONSTRAINT "trailer_attachments_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trailer_attachments" ADD CONSTRAINT "trailer_attachments_vehicle_id_assets_id_fk" FOREIGN KEY ("vehicle_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trailer_attachments" ADD CONSTRAINT "trailer_attachments_trailer_id_assets_id_fk" FOREIGN KEY ("trailer_id") REFERENCES "public"."assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "asset_driver_assignments_asset_idx" ON "asset_driver_assignments" USING btree ("asset_id","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "asset_driver_assignments_driver_idx" ON "asset_driver_assignments" USING btree ("driver_id","started_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "asset_driver_assignments_open_asset_uq" ON "asset_driver_assignments" USING btree ("asset_id") WHERE "asset_driver_assignments"."ended_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "asset_driver_assignments_open_driver_uq" ON "asset_driver_assignments" USING btree ("driver_id") WHERE "asset_driver_assignments"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "assets_org_type_idx" ON "assets" USING btree ("organization_id","type","unit_number");--> statement-breakpoint
CREATE UNIQUE INDEX "assets_org_unit_uq" ON "assets" USING btree ("organization_id",lower("unit_number"));--> statement-breakpoint
CREATE UNIQUE INDEX "assets_org_vin_uq" ON "assets" USING btree ("organization_id",upper("vin")) WHERE "assets"."vin" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "assets_current_driver_uq" ON "assets" USING btree ("current_driver_id") WHERE "assets"."current_driver_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "device_models_name_uq" ON "device_models" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "drivers_org_idx" ON "drivers" USING btree ("organization_id","last_name","first_name");--> statement-breakpoint
CREATE UNIQUE INDEX "drivers_org_license_uq" ON "drivers" USING btree ("organization_id","license_state",upper("license_number")) WHERE "drivers"."license_number" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "drivers_user_uq" ON "drivers" USING btree ("user_id") WHERE "drivers"."user_id" is not null;--> statement-breakpoint
CREATE INDEX "gateway_pairings_gateway_idx" ON "gateway_pairings" USING btree ("gateway_id","paired_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "gateway_pairings_asset_idx" ON "gateway_pairings" USING btree ("asset_id","paired_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "gateways_unique_id_uq" ON "gateways" USING btree ("unique_id");--> statement-breakpoint
CREATE INDEX "gateways_org_idx" ON "gateways" USING btree ("organization_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "gateways_asset_uq" ON "gateways" USING btree ("asset_id") WHERE "gateways"."asset_id" is not null;--> statement-breakpoint
CREATE INDEX "group_assets_asset_idx" ON "group_assets" USING btree ("asset_id");--> statement-breakpoint
CREATE INDEX "group_members_member_idx" ON "group_members" USING btree ("member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "groups_org_name_uq" ON "groups" USING btree ("organization_id",lower("name"));--> statement-breakpoint
CREATE INDEX "trailer_attachments_vehicle_idx" ON "trailer_attachments" USING btree ("vehicle_id","attached_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "trailer_attachments_open_trailer_uq" ON "trailer_attachments" USING btree ("trailer_id") WHERE "trailer_attachments"."detached_at" is null;