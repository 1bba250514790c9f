-- Issue 66 (decision 0242): a refused send to FMCSA is recorded too, with the kind of failure, so
-- the driver app can say what to do and the office what to configure.
ALTER TABLE "eld_transfers" ADD COLUMN "failure" text;
--> statement-breakpoint
-- A speeding event's headline names the limit that set its band and the speed held there (issue 66).
ALTER TABLE "safety_events" ADD COLUMN "held_speed_kph" real;
