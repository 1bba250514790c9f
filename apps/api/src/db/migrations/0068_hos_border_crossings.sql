-- Issue 72: a log follows the rules of where the truck is (decision 0313). hos_border_crossings: the
-- instants a driver crossed between the US and Canada, detected from the truck's positions against
-- the IFTA jurisdiction boundaries (source POSITIONS) or entered by the driver or the office (source
-- DRIVER). A correction never deletes: a removed or moved crossing keeps its row with removed_at and
-- the annotation saying why, so the detection does not add it again (the unique index holds removed
-- rows too) and the log shows what was changed.
-- Keys lead with organization_id (decision 0169) so db:distribute distributes them by organization.
CREATE TABLE "hos_border_crossings" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "driver_id" uuid NOT NULL,
  "vehicle_id" uuid,
  "at" timestamp(3) with time zone NOT NULL,
  "from_country" text NOT NULL,
  "to_country" text NOT NULL,
  "source" text NOT NULL,
  "latitude" double precision,
  "longitude" double precision,
  "annotation" text,
  "created_by" uuid,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "removed_at" timestamp(3) with time zone,
  "removed_by" uuid,
  "removed_annotation" text,
  CONSTRAINT "hos_border_crossings_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "hos_border_crossings_countries_check" CHECK ("from_country" in ('US', 'CA') and "to_country" in ('US', 'CA') and "from_country" <> "to_country"),
  CONSTRAINT "hos_border_crossings_source_check" CHECK ("source" in ('POSITIONS', 'DRIVER')),
  CONSTRAINT "hos_border_crossings_driver_fk" FOREIGN KEY ("organization_id", "driver_id") REFERENCES "drivers"("organization_id", "id") ON DELETE cascade
);--> statement-breakpoint
CREATE UNIQUE INDEX "hos_border_crossings_detected_uq" ON "hos_border_crossings" USING btree ("organization_id", "driver_id", "at", "source");--> statement-breakpoint
-- A crossing changes the rules the log is judged by: the driver's HoS version moves with it, so the
-- in-memory copies of the driver's records (decision 0099) are read again.
CREATE OR REPLACE FUNCTION bump_hos_driver_version_crossing() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r hos_border_crossings; t bigint := fleet_version_clock();
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  INSERT INTO hos_driver_versions AS v (driver_id, organization_id, version) VALUES (r.driver_id, r.organization_id, t)
  ON CONFLICT (driver_id, organization_id) DO UPDATE SET version = greatest(v.version + 1, t);
  PERFORM fleet_notify('hos_changes', r.organization_id::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER hos_border_crossings_version AFTER INSERT OR UPDATE OR DELETE ON hos_border_crossings FOR EACH ROW EXECUTE FUNCTION bump_hos_driver_version_crossing();
