-- Issue 72: what a driver declares on their log that changes the rules it is judged by
-- (decision 0314). hos_declarations: a switch between Canada's cycle 1 and cycle 2 (SOR/2005-313
-- s. 29) at an instant, and (decision 0315) the adverse driving conditions claimed from an instant
-- (49 CFR 395.1(b)(1); s. 77) and an emergency from an instant to the one the driver reached safety
-- (s. 76), each with the driver's or office's annotation. A withdrawn declaration keeps its row with
-- removed_at and the annotation saying why: the log shows what was changed.
-- Keys lead with organization_id (decision 0169) so db:distribute distributes them by organization.
CREATE TABLE "hos_declarations" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "driver_id" uuid NOT NULL,
  "kind" text NOT NULL,
  "at" timestamp(3) with time zone NOT NULL,
  "until" timestamp(3) with time zone,
  "cycle" smallint,
  "annotation" text NOT NULL,
  "created_by" uuid,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "removed_at" timestamp(3) with time zone,
  "removed_by" uuid,
  "removed_annotation" text,
  CONSTRAINT "hos_declarations_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "hos_declarations_kind_check" CHECK ("kind" in ('CYCLE_SWITCH', 'ADVERSE_DRIVING', 'EMERGENCY')),
  CONSTRAINT "hos_declarations_cycle_check" CHECK (("kind" = 'CYCLE_SWITCH') = ("cycle" is not null) and ("cycle" is null or "cycle" in (1, 2))),
  CONSTRAINT "hos_declarations_until_check" CHECK ("until" is null or "until" > "at"),
  CONSTRAINT "hos_declarations_driver_fk" FOREIGN KEY ("organization_id", "driver_id") REFERENCES "drivers"("organization_id", "id") ON DELETE cascade
);--> statement-breakpoint
CREATE INDEX "hos_declarations_driver_idx" ON "hos_declarations" USING btree ("organization_id", "driver_id", "at");--> statement-breakpoint
-- A declaration changes the rules the log is judged by: the driver's HoS version moves with it, so
-- the in-memory copies of the driver's records (decision 0099) are read again.
CREATE OR REPLACE FUNCTION bump_hos_driver_version_declaration() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE r hos_declarations; t bigint := fleet_version_clock();
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  INSERT INTO hos_driver_versions AS v (driver_id, organization_id, version) VALUES (r.driver_id, r.organization_id, t)
  ON CONFLICT (driver_id, organization_id) DO UPDATE SET version = greatest(v.version + 1, t);
  PERFORM fleet_notify('hos_changes', r.organization_id::text);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER hos_declarations_version AFTER INSERT OR UPDATE OR DELETE ON hos_declarations FOR EACH ROW EXECUTE FUNCTION bump_hos_driver_version_declaration();
