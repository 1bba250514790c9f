-- Issue 46: engine fault codes (decision 0191). engine_faults: one row per episode of a fault on a
-- vehicle, keys leading with organization_id (decision 0169) so db:distribute distributes it by the
-- organization; one active episode per vehicle and code. engine_fault_settings: the organization's
-- grounding codes. vehicle_defects: a defect may be made of an engine fault instead of an inspection.
CREATE TABLE "engine_faults" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "asset_id" uuid NOT NULL,
  "source" text NOT NULL,
  "channel" text NOT NULL,
  "code" text NOT NULL,
  "spn" integer,
  "fmi" smallint,
  "occurrences" integer,
  "lamps" jsonb,
  "first_seen_at" timestamp(3) with time zone NOT NULL,
  "last_seen_at" timestamp(3) with time zone NOT NULL,
  "cleared_at" timestamp(3) with time zone,
  "defect_id" uuid,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "engine_faults_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "engine_faults_source_check" CHECK ("source" in ('J1939', 'OBD')),
  CONSTRAINT "engine_faults_channel_check" CHECK ("channel" in ('dtcs', 'dm1', 'dm1Dtc'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "engine_faults_active_uq" ON "engine_faults" USING btree ("organization_id", "asset_id", "code") WHERE "cleared_at" is null;--> statement-breakpoint
CREATE INDEX "engine_faults_asset_idx" ON "engine_faults" USING btree ("organization_id", "asset_id", "last_seen_at" DESC);--> statement-breakpoint
CREATE TABLE "engine_fault_settings" (
  "organization_id" uuid PRIMARY KEY NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "grounding_codes" text[] DEFAULT '{}'::text[] NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
ALTER TABLE "vehicle_defects" ALTER COLUMN "dvir_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "vehicle_defects" ADD COLUMN "engine_fault_id" uuid;--> statement-breakpoint
CREATE UNIQUE INDEX "vehicle_defects_engine_fault_uq" ON "vehicle_defects" USING btree ("organization_id", "engine_fault_id") WHERE "engine_fault_id" is not null;
