-- Issue 66 (decision 0230): attempts in a row that got no answer within their timeout, per webhook
-- subscription. Above 0 the sender gives the subscription a shorter timeout and fewer slots until
-- its receiver answers again; the subscription screen shows it as timing out.
ALTER TABLE "webhook_subscriptions" ADD COLUMN "consecutive_timeouts" integer DEFAULT 0 NOT NULL;
