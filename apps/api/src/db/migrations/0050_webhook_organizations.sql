-- Issue 49 (decision 0206): the organizations that have webhook subscriptions, as a small table the
-- webhook sender reads on one node. On Citus the sender claims each such organization's deliveries
-- with a statement routed to its shard (a claim over every organization's shards, with FOR UPDATE,
-- is refused there); a reference table is readable without touching any shard.
CREATE TABLE "webhook_organizations" (
  "organization_id" uuid PRIMARY KEY NOT NULL REFERENCES "organizations"("id") ON DELETE cascade
);--> statement-breakpoint
INSERT INTO "webhook_organizations" ("organization_id") SELECT DISTINCT "organization_id" FROM "webhook_subscriptions";
