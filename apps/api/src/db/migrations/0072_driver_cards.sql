-- Issue 73: the driver's card and the tracking link's temperature (decisions 0324, 0325).
-- drivers.card_number: the driver's iButton or RFID card, 16 upper-case hex digits (the form Teltonika
-- element 78 and RFID 207 arrive in); one driver per card in an organization.
-- driver_card_reads: each change of card a device read, once: (gateway, time) names it, so a resent
-- packet or a replay after a restart records (and assigns) nothing twice. driver_id null: a card no
-- driver has (shown on the vehicle's page). assigned: the read made the driver the vehicle's driver.
-- share_links.show_temperature: the carrier lets this link show the load's reefer temperature.
-- Keys lead with organization_id (decision 0169) so db:distribute distributes them by organization.
ALTER TABLE "drivers" ADD COLUMN "card_number" text;--> statement-breakpoint
CREATE UNIQUE INDEX "drivers_org_card_uq" ON "drivers" USING btree ("organization_id", "card_number") WHERE "card_number" is not null;--> statement-breakpoint
CREATE TABLE "driver_card_reads" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "gateway_id" uuid NOT NULL,
  "read_at" timestamp(3) with time zone NOT NULL,
  "asset_id" uuid,
  "card_number" text NOT NULL,
  "driver_id" uuid,
  "assigned" boolean DEFAULT false NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "driver_card_reads_pkey" PRIMARY KEY ("organization_id", "id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "driver_card_reads_gateway_uq" ON "driver_card_reads" USING btree ("organization_id", "gateway_id", "read_at");--> statement-breakpoint
CREATE INDEX "driver_card_reads_asset_idx" ON "driver_card_reads" USING btree ("organization_id", "asset_id", "read_at");--> statement-breakpoint
ALTER TABLE "share_links" ADD COLUMN "show_temperature" boolean DEFAULT false NOT NULL;
