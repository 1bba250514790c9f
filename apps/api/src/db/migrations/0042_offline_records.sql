-- Issue 44: records a driver's phone took offline are sent later, each with an Idempotency-Key
-- (decision 0184). The key is stored with the record it made, unique per driver (and event type: a
-- duty-status change writes its special-category row with the same key), so a resend after a lost
-- answer, a restart or a killed process finds the first record instead of storing a second. Keys
-- lead with organization_id (decision 0169).
ALTER TABLE "hos_events" ADD COLUMN "client_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "hos_events_client_uq" ON "hos_events" USING btree ("organization_id", "driver_id", "event_type", "client_id") WHERE "client_id" is not null;--> statement-breakpoint
ALTER TABLE "dvirs" ADD COLUMN "client_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "dvirs_client_uq" ON "dvirs" USING btree ("organization_id", "driver_id", "client_id") WHERE "client_id" is not null;--> statement-breakpoint
ALTER TABLE "images" ADD COLUMN "client_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "images_client_uq" ON "images" USING btree ("organization_id", "client_id") WHERE "client_id" is not null;
