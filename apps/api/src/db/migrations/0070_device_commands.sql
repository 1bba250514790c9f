-- Issue 73: text commands to a device (decision 0318). One row per command an office user or an API
-- token queued for a gateway: sent with codec 12 while the device is connected or when it next
-- connects, its answer stored with it. status: QUEUED (waiting for the device), SENT (written to its
-- connection, no answer yet), ANSWERED, EXPIRED (expires_at passed before an answer; set on read by
-- the gateways module, never sent after). queued_by: the user who queued it (null once the user is
-- deleted, or for a token's command: queued_by_token names the token then).
-- Keys lead with organization_id (decision 0169) so db:distribute distributes them by organization.
CREATE TABLE "device_commands" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "gateway_id" uuid NOT NULL,
  "text" text NOT NULL,
  "status" text DEFAULT 'QUEUED' NOT NULL,
  "answer" text,
  "queued_by" uuid,
  "queued_by_email" text,
  "queued_by_token" text,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "sent_at" timestamp(3) with time zone,
  "answered_at" timestamp(3) with time zone,
  "expires_at" timestamp(3) with time zone NOT NULL,
  CONSTRAINT "device_commands_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "device_commands_status_check" CHECK ("status" in ('QUEUED', 'SENT', 'ANSWERED', 'EXPIRED')),
  CONSTRAINT "device_commands_gateway_fk" FOREIGN KEY ("organization_id", "gateway_id") REFERENCES "gateways"("organization_id", "id") ON DELETE cascade
);--> statement-breakpoint
CREATE INDEX "device_commands_gateway_idx" ON "device_commands" USING btree ("organization_id", "gateway_id", "created_at");--> statement-breakpoint
CREATE INDEX "device_commands_waiting_idx" ON "device_commands" USING btree ("organization_id", "gateway_id", "created_at") WHERE "status" in ('QUEUED', 'SENT');--> statement-breakpoint
-- GAT_COMMAND is a new organization permission: the built-in Administrator roles get it.
UPDATE "roles" SET "permissions" = array_append("permissions", 'GAT_COMMAND')
WHERE "system_role" = 'ADMIN' AND NOT ('GAT_COMMAND' = ANY("permissions"));
