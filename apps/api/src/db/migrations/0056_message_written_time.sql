-- Issue 66 (decision 0246): a driver's message written without signal keeps the time it was written
-- in sent_at; received_at is when the server took it. Messages stored before were taken as sent, so
-- both times are the same for them.
ALTER TABLE "messages" ADD COLUMN "received_at" timestamp(3) with time zone;--> statement-breakpoint
UPDATE "messages" SET "received_at" = "sent_at";--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "received_at" SET DEFAULT now();--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "received_at" SET NOT NULL;
