-- Issue 47 (decision 0199): each vehicle's trips summed per driver and UTC day, for the safety scores
-- (1,000 drivers over 4 weeks read ~28,000 small rows instead of every trip). The trips writer keeps
-- it in its own transaction; existing trips are summed here once. Report subscriptions may schedule
-- the safety events and scores.
CREATE TABLE "safety_daily_totals" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "asset_id" uuid NOT NULL,
  "driver_id" uuid,
  "day" date NOT NULL,
  "distance_m" double precision NOT NULL,
  "driving_s" double precision NOT NULL,
  "trips" integer NOT NULL
);--> statement-breakpoint
-- No key (a vehicle's days are deleted and summed again, the driver may be null): whole rows are the
-- replica identity for Citus's logical shard moves (migration 0038).
ALTER TABLE "safety_daily_totals" REPLICA IDENTITY FULL;--> statement-breakpoint
CREATE INDEX "safety_daily_totals_day_idx" ON "safety_daily_totals" USING btree ("organization_id", "day");--> statement-breakpoint
CREATE INDEX "safety_daily_totals_asset_idx" ON "safety_daily_totals" USING btree ("organization_id", "asset_id", "day");--> statement-breakpoint
INSERT INTO "safety_daily_totals" ("organization_id", "asset_id", "driver_id", "day", "distance_m", "driving_s", "trips")
SELECT "organization_id", "asset_id", "driver_id", ("started_at" AT TIME ZONE 'UTC')::date, sum("distance_m"), sum(extract(epoch FROM "ended_at" - "started_at"))::float8, count(*)::int
FROM "trips" GROUP BY 1, 2, 3, 4;--> statement-breakpoint
-- Scheduled safety reports (events, and scores per driver or vehicle).
ALTER TABLE "report_subscriptions" DROP CONSTRAINT "report_subscriptions_report_check";--> statement-breakpoint
ALTER TABLE "report_subscriptions" ADD CONSTRAINT "report_subscriptions_report_check" CHECK ("report" IN ('VISITS', 'TRIPS', 'STOPS', 'SUMMARY', 'SAFETY_EVENTS', 'SAFETY_SCORES'));
