-- Issue 66. A stream ticket opens only the stream it was asked for, and belongs to the session
-- (refresh-token family) that asked: signing that session out ends the streams it opened. Tickets
-- live for seconds, so the ones issued before this migration simply expire unused.
ALTER TABLE "stream_tickets" ADD COLUMN "stream" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "stream_tickets" ADD COLUMN "session_id" uuid;--> statement-breakpoint
-- A person's own change of e-mail: the old address is told, with a single-use link that undoes the
-- change for 7 days (decision 0227). Only the link's SHA-256 is stored.
CREATE TABLE "email_changes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL REFERENCES "users"("id") ON DELETE cascade,
	"old_email" text NOT NULL,
	"new_email" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE UNIQUE INDEX "email_changes_hash_uq" ON "email_changes" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "email_changes_user_idx" ON "email_changes" USING btree ("user_id");
