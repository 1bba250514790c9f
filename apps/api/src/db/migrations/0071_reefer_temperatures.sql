-- Issue 73: reefer temperatures (decisions 0320-0322).
-- trailer_sensors: what each of a trailer's sensors measures (return air, supply air, a zone).
-- temperature_readings: every reading a gateway sent, once: (gateway, sensor, time) names it, so a
-- resent batch or a replay stores nothing twice. asset_id is the trailer it was read in (null: none known).
-- loads: the reefer settings typed on a load (null: the commodity's defaults).
-- temperature_excursions: one row per excursion found on a load, named by (load, sensor, start): a
-- recompute of the same readings finds the same row and leaves it as it is.
-- Keys lead with organization_id (decision 0169) so db:distribute distributes them by organization.
CREATE TABLE "trailer_sensors" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "asset_id" uuid NOT NULL,
  "sensor" text NOT NULL,
  "role" text NOT NULL,
  CONSTRAINT "trailer_sensors_pkey" PRIMARY KEY ("organization_id", "asset_id", "sensor"),
  CONSTRAINT "trailer_sensors_role_check" CHECK ("role" in ('RETURN_AIR', 'SUPPLY_AIR', 'ZONE_1', 'ZONE_2', 'ZONE_3'))
);--> statement-breakpoint
CREATE TABLE "temperature_readings" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "gateway_id" uuid NOT NULL,
  "sensor" text NOT NULL,
  "at" timestamp(3) with time zone NOT NULL,
  "asset_id" uuid,
  "celsius" double precision NOT NULL,
  "defrost" boolean DEFAULT false NOT NULL,
  CONSTRAINT "temperature_readings_pkey" PRIMARY KEY ("organization_id", "gateway_id", "sensor", "at")
);--> statement-breakpoint
CREATE INDEX "temperature_readings_asset_idx" ON "temperature_readings" USING btree ("organization_id", "asset_id", "at");--> statement-breakpoint
ALTER TABLE "loads" ADD COLUMN "reefer_set_point_c" double precision;--> statement-breakpoint
ALTER TABLE "loads" ADD COLUMN "reefer_tolerance_c" double precision;--> statement-breakpoint
ALTER TABLE "loads" ADD COLUMN "reefer_delay_minutes" integer;--> statement-breakpoint
CREATE TABLE "temperature_excursions" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "load_id" uuid NOT NULL,
  "asset_id" uuid NOT NULL,
  "sensor" text NOT NULL,
  "started_at" timestamp(3) with time zone NOT NULL,
  "ended_at" timestamp(3) with time zone,
  "direction" text NOT NULL,
  "peak_c" double precision NOT NULL,
  "set_point_c" double precision NOT NULL,
  "tolerance_c" double precision NOT NULL,
  CONSTRAINT "temperature_excursions_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "temperature_excursions_direction_check" CHECK ("direction" in ('HIGH', 'LOW'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "temperature_excursions_key_uq" ON "temperature_excursions" USING btree ("organization_id", "load_id", "sensor", "started_at");--> statement-breakpoint
CREATE INDEX "temperature_excursions_asset_idx" ON "temperature_excursions" USING btree ("organization_id", "asset_id", "started_at");
