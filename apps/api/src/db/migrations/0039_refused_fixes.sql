-- Issue 43: refused fixes are answered as received (a device never resends them) and shown on the
-- device's page for a day; "use the time received" per device (Traccar's time.override).
-- refused_fixes holds one row per device, minute and reason (a count of them), purged after 24
-- hours by the recorder (modules/positions/refused-fixes.ts). Keys lead with organization_id
-- (decision 0169): db:distribute distributes it with the organization's other tables. No foreign
-- key to gateways: a device deleted while its refusals wait to be written must not fail the batch.
ALTER TABLE "gateways" ADD COLUMN "use_received_time" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE TABLE "refused_fixes" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "gateway_id" uuid NOT NULL,
  "minute" timestamp with time zone NOT NULL,
  "reason" text NOT NULL,
  "received_at" timestamp with time zone NOT NULL,
  "fix_time" timestamp with time zone,
  "message" text NOT NULL,
  "field" text,
  "protocol" text NOT NULL,
  "count" integer NOT NULL,
  CONSTRAINT "refused_fixes_pkey" PRIMARY KEY ("organization_id", "gateway_id", "minute", "reason")
);--> statement-breakpoint
CREATE INDEX "refused_fixes_received_idx" ON "refused_fixes" USING btree ("received_at");
