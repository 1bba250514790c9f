-- Issue 30: engine data on every position (decision 0152). The odometer column keeps the best
-- odometer the device reported, its source says which: the engine's (ECM) or the GNSS one (GPS).
ALTER TABLE "positions" ADD COLUMN "engine_hours" double precision;
--> statement-breakpoint
ALTER TABLE "positions" ADD COLUMN "odometer_source" text;
--> statement-breakpoint
-- A device model's protocol decodes numbered IO elements (Teltonika); its map names them.
ALTER TABLE "device_models" ADD COLUMN "io_map" jsonb DEFAULT '{}'::jsonb NOT NULL;
