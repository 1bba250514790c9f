-- Issue 47 (decision 0199): each vehicle's trips summed per driver and UTC day, for the safety scores
-- (1,000 drivers over 4 weeks read ~28,000 small rows instead of every trip). The trips writer keeps
-- it in its own transaction; existing trips are summed here once.
CREATE TABLE "safety_daily_totals" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "asset_id" uuid NOT NULL,
  "driver_id" uuid,
  "day" date NOT NULL,
  "distance_m" double precision NOT NULL,
  "driving_s" double precision NOT NULL,
  "trips" integer NOT NULL
);--> statement-breakpoint
CREATE INDEX "safety_daily_totals_day_idx" ON "safety_daily_totals" USING btree ("organization_id", "day");--> statement-breakpoint
CREATE INDEX "safety_daily_totals_asset_idx" ON "safety_daily_totals" USING btree ("organization_id", "asset_id", "day");--> statement-breakpoint
INSERT INTO "safety_daily_totals" ("organization_id", "asset_id", "driver_id", "day", "distance_m", "driving_s", "trips")
SELECT "organization_id", "asset_id", "driver_id", ("started_at" AT TIME ZONE 'UTC')::date, sum("distance_m"), sum(extract(epoch FROM "ended_at" - "started_at"))::float8, count(*)::int
FROM "trips" GROUP BY 1, 2, 3, 4;
