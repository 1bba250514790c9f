-- Issue 46: a notification carries the time of the fact it reports (a violation's start, the last
-- report of a device gone quiet, a vehicle's arrival), not the time the server noticed it: after a
-- start-up every fact found then bore the start time. Null for rows written before (they show
-- their creation time, as before).
ALTER TABLE "notifications" ADD COLUMN "occurred_at" timestamp with time zone;--> statement-breakpoint
-- Issue 46: an IFTA stretch flagged as an impossible jump keeps its metres per jurisdiction, so the
-- return can leave exactly those miles out until someone accepts the jump (null for stretches
-- counted before: their metres are shared evenly among the jurisdictions they name).
ALTER TABLE "ifta_flagged_segments" ADD COLUMN "metres_by_jurisdiction" jsonb;
