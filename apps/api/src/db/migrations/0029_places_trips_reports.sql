-- Issue 32: places and their visits, trips and stops kept behind ingest, and scheduled reports
-- (decisions 0162, 0163). Visits, trips and stops carry no foreign key to assets, as positions.
CREATE TABLE "places" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "name" text NOT NULL,
  "category" text NOT NULL,
  "geometry" jsonb NOT NULL,
  "radius_m" double precision,
  "arrival_dwell_s" integer DEFAULT 120 NOT NULL,
  "departure_dwell_s" integer DEFAULT 60 NOT NULL,
  "group_id" uuid REFERENCES "groups"("id") ON DELETE set null,
  "address" text,
  "notes" text,
  "min_lat" double precision NOT NULL,
  "min_lon" double precision NOT NULL,
  "max_lat" double precision NOT NULL,
  "max_lon" double precision NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "places_category_check" CHECK ("category" IN ('CUSTOMER', 'TERMINAL', 'YARD', 'FUEL', 'RESTRICTED', 'OTHER'))
);
--> statement-breakpoint
CREATE INDEX "places_org_name_idx" ON "places" ("organization_id", "name");
--> statement-breakpoint
CREATE INDEX "places_org_bbox_idx" ON "places" ("organization_id", "min_lon", "max_lon");
--> statement-breakpoint
CREATE TABLE "place_visits" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "place_id" uuid NOT NULL REFERENCES "places"("id") ON DELETE cascade,
  "asset_id" uuid NOT NULL,
  "driver_id" uuid REFERENCES "drivers"("id") ON DELETE set null,
  "arrived_at" timestamp with time zone NOT NULL,
  "departed_at" timestamp with time zone,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "place_visits_org_time_idx" ON "place_visits" ("organization_id", "arrived_at" DESC);
--> statement-breakpoint
CREATE INDEX "place_visits_asset_time_idx" ON "place_visits" ("asset_id", "arrived_at" DESC);
--> statement-breakpoint
CREATE INDEX "place_visits_place_time_idx" ON "place_visits" ("place_id", "arrived_at" DESC);
--> statement-breakpoint
CREATE TABLE "trips" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "asset_id" uuid NOT NULL,
  "driver_id" uuid REFERENCES "drivers"("id") ON DELETE set null,
  "started_at" timestamp with time zone NOT NULL,
  "ended_at" timestamp with time zone NOT NULL,
  "start_lat" double precision NOT NULL,
  "start_lon" double precision NOT NULL,
  "end_lat" double precision NOT NULL,
  "end_lon" double precision NOT NULL,
  "start_place_id" uuid REFERENCES "places"("id") ON DELETE set null,
  "end_place_id" uuid REFERENCES "places"("id") ON DELETE set null,
  "start_address" text,
  "end_address" text,
  "distance_m" double precision NOT NULL,
  "max_speed_kmh" real NOT NULL,
  "avg_speed_kmh" real NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "trips_org_time_idx" ON "trips" ("organization_id", "started_at" DESC);
--> statement-breakpoint
CREATE INDEX "trips_asset_time_idx" ON "trips" ("asset_id", "started_at" DESC);
--> statement-breakpoint
CREATE INDEX "trips_driver_time_idx" ON "trips" ("driver_id", "started_at" DESC);
--> statement-breakpoint
CREATE TABLE "vehicle_stops" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "asset_id" uuid NOT NULL,
  "driver_id" uuid REFERENCES "drivers"("id") ON DELETE set null,
  "started_at" timestamp with time zone NOT NULL,
  "ended_at" timestamp with time zone,
  "lat" double precision NOT NULL,
  "lon" double precision NOT NULL,
  "place_id" uuid REFERENCES "places"("id") ON DELETE set null,
  "address" text,
  "idle_s" integer DEFAULT 0 NOT NULL,
  "engine_on" boolean,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "vehicle_stops_org_time_idx" ON "vehicle_stops" ("organization_id", "started_at" DESC);
--> statement-breakpoint
CREATE INDEX "vehicle_stops_asset_time_idx" ON "vehicle_stops" ("asset_id", "started_at" DESC);
--> statement-breakpoint
CREATE INDEX "vehicle_stops_driver_time_idx" ON "vehicle_stops" ("driver_id", "started_at" DESC);
--> statement-breakpoint
CREATE TABLE "report_subscriptions" (
  "id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
  "report" text NOT NULL,
  "filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "frequency" text NOT NULL,
  "time_of_day" text NOT NULL,
  "weekday" integer,
  "time_zone" text NOT NULL,
  "formats" text[] DEFAULT '{pdf,csv}'::text[] NOT NULL,
  "last_run_at" timestamp with time zone,
  "next_run_at" timestamp with time zone NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "report_subscriptions_report_check" CHECK ("report" IN ('VISITS', 'TRIPS', 'STOPS', 'SUMMARY')),
  CONSTRAINT "report_subscriptions_frequency_check" CHECK ("frequency" IN ('DAILY', 'WEEKLY'))
);
--> statement-breakpoint
CREATE INDEX "report_subscriptions_org_user_idx" ON "report_subscriptions" ("organization_id", "user_id");
--> statement-breakpoint
CREATE INDEX "report_subscriptions_next_run_idx" ON "report_subscriptions" ("next_run_at");
--> statement-breakpoint
CREATE TABLE "report_runs" (
  "subscription_id" uuid NOT NULL REFERENCES "report_subscriptions"("id") ON DELETE cascade,
  "scheduled_for" timestamp with time zone NOT NULL,
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "started_at" timestamp with time zone DEFAULT now() NOT NULL,
  "finished_at" timestamp with time zone,
  "outcome" text,
  CONSTRAINT "report_runs_pk" PRIMARY KEY ("subscription_id", "scheduled_for")
);
