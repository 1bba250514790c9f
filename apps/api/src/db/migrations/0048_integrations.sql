-- Issue 48: integrations (decisions 0197, 0198). Keys lead with organization_id (decision 0169), so
-- db:distribute distributes these tables by the organization like the others.
-- api_tokens: a token's keyed hash (never the secret), its permission codes, expiry and client
-- addresses; revoked_at ends it (the API sends auth_change in the revoking transaction, so every
-- instance drops what it cached).
CREATE TABLE "api_tokens" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "name" text NOT NULL,
  "token_hash" text NOT NULL,
  "prefix" text NOT NULL,
  "permissions" text[] NOT NULL,
  "expires_at" timestamp(3) with time zone,
  "allowed_ips" text[] DEFAULT '{}'::text[] NOT NULL,
  "created_by" uuid,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "revoked_at" timestamp(3) with time zone,
  "revoked_by" uuid,
  "last_used_at" timestamp(3) with time zone,
  "last_used_ip" text,
  CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("organization_id", "id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_hash_uq" ON "api_tokens" USING btree ("token_hash", "organization_id");--> statement-breakpoint
-- The activity log names the token that made a change (the creator stays in actor_user_id).
ALTER TABLE "activity_log" ADD COLUMN "actor_token_id" uuid;--> statement-breakpoint
ALTER TABLE "activity_log" ADD COLUMN "actor_token_name" text;--> statement-breakpoint
CREATE TABLE "webhook_subscriptions" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "url" text NOT NULL,
  "events" text[] NOT NULL,
  "description" text,
  "enabled" boolean DEFAULT true NOT NULL,
  "secret" text NOT NULL,
  "previous_secret" text,
  "previous_secret_expires_at" timestamp(3) with time zone,
  "disabled_reason" text,
  "failing_since" timestamp(3) with time zone,
  "created_by" uuid,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "webhook_subscriptions_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "webhook_subscriptions_disabled_reason_check" CHECK ("disabled_reason" in ('GONE', 'FAILING'))
);--> statement-breakpoint
-- The outbox: one row per fact (its body as sent, so every attempt signs the same bytes), and one
-- delivery per subscription that wanted it, both written in the fact's own transaction.
CREATE TABLE "webhook_events" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid NOT NULL,
  "type" text NOT NULL,
  "occurred_at" timestamp(3) with time zone NOT NULL,
  "body" text NOT NULL,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "webhook_events_pkey" PRIMARY KEY ("organization_id", "id")
);--> statement-breakpoint
CREATE TABLE "webhook_deliveries" (
  "organization_id" uuid NOT NULL,
  "id" bigserial NOT NULL,
  "subscription_id" uuid NOT NULL,
  "event_id" uuid NOT NULL,
  "status" text DEFAULT 'PENDING' NOT NULL,
  "attempts" integer DEFAULT 0 NOT NULL,
  "next_attempt_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "leased_until" timestamp(3) with time zone,
  "last_attempt_at" timestamp(3) with time zone,
  "response_code" integer,
  "last_error" text,
  "duration_ms" integer,
  "delivered_at" timestamp(3) with time zone,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" in ('PENDING', 'DELIVERED', 'FAILED')),
  CONSTRAINT "webhook_deliveries_subscription_fk" FOREIGN KEY ("organization_id", "subscription_id") REFERENCES "webhook_subscriptions"("organization_id", "id") ON DELETE cascade,
  CONSTRAINT "webhook_deliveries_event_fk" FOREIGN KEY ("organization_id", "event_id") REFERENCES "webhook_events"("organization_id", "id") ON DELETE cascade
);--> statement-breakpoint
-- A subscription's queue in order: its head is the first pending row (delivery in order per subscription).
CREATE INDEX "webhook_deliveries_queue_idx" ON "webhook_deliveries" USING btree ("organization_id", "subscription_id", "id") WHERE "status" = 'PENDING';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_list_idx" ON "webhook_deliveries" USING btree ("organization_id", "subscription_id", "id" DESC);--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_idx" ON "webhook_deliveries" USING btree ("organization_id", "event_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_old_idx" ON "webhook_deliveries" USING btree ("created_at") WHERE "status" <> 'PENDING';
