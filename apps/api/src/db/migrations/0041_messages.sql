-- Issue 44: messages between a driver and dispatch, one conversation per driver (decision 0181).
-- Keys lead with organization_id (decision 0169). client_id makes a resend from the sender's
-- device the same message (unique per conversation and side). Times in milliseconds: the API's
-- instants round-trip exactly, so `upTo` and `before` taken from a message name that message.
CREATE TABLE "messages" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "driver_id" uuid NOT NULL,
  "load_id" uuid,
  "side" text NOT NULL,
  "sender_user_id" uuid,
  "body" text NOT NULL,
  "image_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
  "client_id" text,
  "sent_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "read_at" timestamp(3) with time zone,
  CONSTRAINT "messages_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "messages_side_check" CHECK ("side" in ('DRIVER', 'OFFICE'))
);--> statement-breakpoint
CREATE INDEX "messages_conversation_idx" ON "messages" USING btree ("organization_id", "driver_id", "sent_at");--> statement-breakpoint
CREATE INDEX "messages_load_idx" ON "messages" USING btree ("organization_id", "load_id", "sent_at") WHERE "load_id" is not null;--> statement-breakpoint
CREATE INDEX "messages_unread_idx" ON "messages" USING btree ("organization_id", "side", "driver_id") WHERE "read_at" is null;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_client_uq" ON "messages" USING btree ("organization_id", "driver_id", "side", "client_id") WHERE "client_id" is not null;
