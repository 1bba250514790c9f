-- Issue 31: driver vehicle inspection reports, defects, work orders and preventive maintenance
-- (decision 0158). Reports and defects keep the unit numbers as inspected and carry no foreign key
-- to assets, so a removed vehicle's reports stay for their legal period (396.11: three months).
CREATE TABLE "dvirs" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "asset_id" uuid NOT NULL,
  "unit_number" text NOT NULL,
  "trailers" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "driver_id" uuid REFERENCES "drivers"("id") ON DELETE set null,
  "driver_name" text NOT NULL,
  "kind" text NOT NULL,
  "inspected_at" timestamp with time zone NOT NULL,
  "odometer_m" double precision,
  "latitude" double precision,
  "longitude" double precision,
  "location" text,
  "items" jsonb NOT NULL,
  "has_defects" boolean NOT NULL,
  "signature_name" text NOT NULL,
  "signature_image_id" uuid,
  "remarks" text,
  "reviewed_by_driver_id" uuid REFERENCES "drivers"("id") ON DELETE set null,
  "reviewer_name" text,
  "review_signature_name" text,
  "review_signature_image_id" uuid,
  "reviewed_at" timestamp with time zone,
  "created_by_user_id" uuid,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "dvirs_kind_check" CHECK ("kind" IN ('PRE_TRIP', 'POST_TRIP'))
);
--> statement-breakpoint
CREATE INDEX "dvirs_org_asset_time_idx" ON "dvirs" ("organization_id", "asset_id", "inspected_at" DESC);
--> statement-breakpoint
CREATE INDEX "dvirs_org_time_idx" ON "dvirs" ("organization_id", "inspected_at" DESC);
--> statement-breakpoint
CREATE INDEX "dvirs_org_driver_time_idx" ON "dvirs" ("organization_id", "driver_id", "inspected_at" DESC);
--> statement-breakpoint
CREATE TABLE "work_orders" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "asset_id" uuid NOT NULL,
  "unit_number" text NOT NULL,
  "title" text NOT NULL,
  "description" text,
  "status" text DEFAULT 'OPEN' NOT NULL,
  "assignee" text,
  "parts" text,
  "labor_hours" real,
  "cost_cents" bigint,
  "schedule_id" uuid,
  "created_by_user_id" uuid,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  "completed_at" timestamp with time zone,
  CONSTRAINT "work_orders_status_check" CHECK ("status" IN ('OPEN', 'IN_PROGRESS', 'DONE'))
);
--> statement-breakpoint
CREATE INDEX "work_orders_org_status_idx" ON "work_orders" ("organization_id", "status", "created_at" DESC);
--> statement-breakpoint
CREATE INDEX "work_orders_org_asset_idx" ON "work_orders" ("organization_id", "asset_id");
--> statement-breakpoint
CREATE TABLE "vehicle_defects" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "dvir_id" uuid NOT NULL REFERENCES "dvirs"("id") ON DELETE cascade,
  "asset_id" uuid NOT NULL,
  "unit_number" text NOT NULL,
  "item" text NOT NULL,
  "label" text NOT NULL,
  "note" text,
  "image_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
  "safety" boolean NOT NULL,
  "status" text DEFAULT 'OPEN' NOT NULL,
  "work_order_id" uuid,
  "certified_at" timestamp with time zone,
  "certified_by_name" text,
  "certified_by_image_id" uuid,
  "certified_by_user_id" uuid,
  "certification" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "vehicle_defects_status_check" CHECK ("status" IN ('OPEN', 'REPAIRED', 'NOT_NEEDED'))
);
--> statement-breakpoint
CREATE INDEX "vehicle_defects_org_status_idx" ON "vehicle_defects" ("organization_id", "status", "asset_id");
--> statement-breakpoint
CREATE INDEX "vehicle_defects_dvir_idx" ON "vehicle_defects" ("dvir_id");
--> statement-breakpoint
CREATE INDEX "vehicle_defects_work_order_idx" ON "vehicle_defects" ("work_order_id") WHERE "work_order_id" IS NOT NULL;
--> statement-breakpoint
CREATE TABLE "maintenance_schedules" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "asset_id" uuid,
  "group_id" uuid REFERENCES "groups"("id") ON DELETE cascade,
  "name" text NOT NULL,
  "every_m" double precision,
  "every_engine_hours" double precision,
  "every_days" integer,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "maintenance_schedules_target_check" CHECK (("asset_id" IS NULL) <> ("group_id" IS NULL)),
  CONSTRAINT "maintenance_schedules_interval_check" CHECK ("every_m" IS NOT NULL OR "every_engine_hours" IS NOT NULL OR "every_days" IS NOT NULL)
);
--> statement-breakpoint
CREATE INDEX "maintenance_schedules_org_idx" ON "maintenance_schedules" ("organization_id", "name");
--> statement-breakpoint
CREATE TABLE "maintenance_services" (
  "schedule_id" uuid NOT NULL REFERENCES "maintenance_schedules"("id") ON DELETE cascade,
  "asset_id" uuid NOT NULL,
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "done_at" timestamp with time zone NOT NULL,
  "odometer_m" double precision,
  "engine_hours" double precision,
  "work_order_id" uuid,
  CONSTRAINT "maintenance_services_pkey" PRIMARY KEY ("schedule_id", "asset_id")
);
--> statement-breakpoint
CREATE INDEX "maintenance_services_org_asset_idx" ON "maintenance_services" ("organization_id", "asset_id");
--> statement-breakpoint
CREATE TABLE "inspection_items" (
  "organization_id" uuid PRIMARY KEY NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "items" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
