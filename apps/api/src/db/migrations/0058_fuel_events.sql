-- Issue 68, part 2: refuels and drops from the fuel level trucks report (decision 0276).
-- fuel_events: one row per event the fuel-level follower found, named by (vehicle, type, start): a
-- replay of the same positions finds the same row and leaves it as it is. The quantity and the
-- levels are kept in litres and in percent of the tank the follower converted with.
-- fuel_level_marks: how far each vehicle's positions were worked (the start-up catch-up).
-- Keys lead with organization_id (decision 0169) so db:distribute distributes them by organization.
CREATE TABLE "fuel_events" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "asset_id" uuid NOT NULL,
  "driver_id" uuid,
  "type" text NOT NULL,
  "started_at" timestamp(3) with time zone NOT NULL,
  "ended_at" timestamp(3) with time zone NOT NULL,
  "latitude" double precision NOT NULL,
  "longitude" double precision NOT NULL,
  "quantity_l" double precision NOT NULL,
  "level_before_pct" double precision NOT NULL,
  "level_after_pct" double precision NOT NULL,
  "level_before_l" double precision NOT NULL,
  "level_after_l" double precision NOT NULL,
  "tank_capacity_l" double precision NOT NULL,
  "capacity_assumed" boolean DEFAULT false NOT NULL,
  "ignition_off" boolean DEFAULT false NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "fuel_events_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "fuel_events_type_check" CHECK ("type" in ('REFUEL', 'DROP'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "fuel_events_key_uq" ON "fuel_events" USING btree ("organization_id", "asset_id", "type", "started_at");--> statement-breakpoint
CREATE INDEX "fuel_events_time_idx" ON "fuel_events" USING btree ("organization_id", "started_at" DESC);--> statement-breakpoint
CREATE TABLE "fuel_level_marks" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "asset_id" uuid NOT NULL,
  "covered_until" timestamp(3) with time zone NOT NULL,
  CONSTRAINT "fuel_level_marks_pkey" PRIMARY KEY ("organization_id", "asset_id")
);
