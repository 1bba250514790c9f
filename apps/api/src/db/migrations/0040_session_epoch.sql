-- Issue 43: "log out everywhere" (and every other end of all of a user's sessions: a password change,
-- deactivation) raises the user's session epoch. Access tokens and stream tickets carry the epoch they
-- were issued in; an older one is refused, and the users trigger's auth_change NOTIFY ends the user's
-- open streams on every instance. A counter, not a time: no instance's clock has to agree with another's.
ALTER TABLE "users" ADD COLUMN "session_epoch" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stream_tickets" ADD COLUMN "session_epoch" integer DEFAULT 0 NOT NULL;
