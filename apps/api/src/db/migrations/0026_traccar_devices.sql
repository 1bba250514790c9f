-- Issue 30: an organization's ingest token for Traccar's JSON forwarding (decision 0154). Only its
-- SHA-256 is stored (as the devices' batch tokens); the token is shown once when created or rotated.
ALTER TABLE "organizations" ADD COLUMN "ingest_token_hash" text;
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "ingest_token_created_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "organizations" ADD COLUMN "ingest_token_last_used_at" timestamp with time zone;
--> statement-breakpoint
CREATE UNIQUE INDEX "organizations_ingest_token_uq" ON "organizations" ("ingest_token_hash") WHERE "ingest_token_hash" IS NOT NULL;
