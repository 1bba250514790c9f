-- Issue 47: driver safety (decisions 0194 and 0195). safety_events: point events devices report and
-- episodes the follower derives, named by (organization, vehicle, type, source, start) so a replay
-- writes the same row and keeps its review; keys lead with organization_id (decision 0169).
-- safety_settings: thresholds, speeding tolerance and bands, weights (absent: the defaults).
-- safety_marks: how far each vehicle's positions were worked (the start-up catch-up).
CREATE TABLE "safety_events" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "asset_id" uuid NOT NULL,
  "driver_id" uuid,
  "type" text NOT NULL,
  "source" text NOT NULL,
  "severity" text NOT NULL,
  "status" text DEFAULT 'NEW' NOT NULL,
  "started_at" timestamp(3) with time zone NOT NULL,
  "ended_at" timestamp(3) with time zone NOT NULL,
  "latitude" double precision NOT NULL,
  "longitude" double precision NOT NULL,
  "speed_before_kph" real,
  "speed_after_kph" real,
  "max_speed_kph" real,
  "limit_kph" real,
  "limit_source" text,
  "band" text,
  "band_seconds" jsonb,
  "strength_mps2" real,
  "fuel_burned_l" real,
  "open" boolean DEFAULT false NOT NULL,
  "coach_id" uuid,
  "due_at" timestamp(3) with time zone,
  "note" text,
  "acknowledged_at" timestamp(3) with time zone,
  "dispute_note" text,
  "disputed_at" timestamp(3) with time zone,
  "history" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "safety_events_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "safety_events_type_check" CHECK ("type" in ('HARSH_ACCELERATION', 'HARSH_BRAKING', 'HARSH_CORNERING', 'SPEEDING', 'MAX_SPEED', 'IDLING', 'CRASH', 'TOWING', 'JAMMING')),
  CONSTRAINT "safety_events_status_check" CHECK ("status" in ('NEW', 'DISMISSED', 'NEEDS_COACHING', 'COACHED', 'RECOGNISED', 'DEFENSIVE'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "safety_events_key_uq" ON "safety_events" USING btree ("organization_id", "asset_id", "type", "source", "started_at");--> statement-breakpoint
CREATE INDEX "safety_events_time_idx" ON "safety_events" USING btree ("organization_id", "started_at" DESC);--> statement-breakpoint
CREATE INDEX "safety_events_driver_idx" ON "safety_events" USING btree ("organization_id", "driver_id", "started_at");--> statement-breakpoint
CREATE INDEX "safety_events_status_idx" ON "safety_events" USING btree ("organization_id", "status");--> statement-breakpoint
CREATE TABLE "safety_settings" (
  "organization_id" uuid PRIMARY KEY NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "settings" jsonb NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE TABLE "safety_marks" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "asset_id" uuid NOT NULL,
  "covered_until" timestamp(3) with time zone NOT NULL,
  CONSTRAINT "safety_marks_pkey" PRIMARY KEY ("organization_id", "asset_id")
);
