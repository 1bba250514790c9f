-- Issue 70, part 1: customers (decision 0284). The brokers and shippers a carrier bills, a registry
-- of their own: billing address, e-mail for invoices, payment terms, the detention rule (free time,
-- then a rate per hour) and whether a delivery needs a proof of delivery. A load names one by
-- customer_id; its customer text stays, the name printed on the load (the customer's name).
-- Keys lead with organization_id (decision 0169) so db:distribute places the rows with the
-- organization's; the load's link names (organization_id, customer_id) on both sides, and a deleted
-- customer leaves its loads with their printed name (SET NULL of customer_id only).
CREATE TABLE "customers" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "name" text NOT NULL,
  "billing_address" text,
  "invoice_email" text,
  "payment_terms_days" integer DEFAULT 30 NOT NULL,
  "detention_free_minutes" integer DEFAULT 120 NOT NULL,
  "detention_cents_per_hour" integer DEFAULT 0 NOT NULL,
  "requires_pod" boolean DEFAULT false NOT NULL,
  "notes" text,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "customers_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "customers_payment_terms_check" CHECK ("payment_terms_days" between 0 and 365),
  CONSTRAINT "customers_detention_free_check" CHECK ("detention_free_minutes" between 0 and 1440),
  CONSTRAINT "customers_detention_rate_check" CHECK ("detention_cents_per_hour" >= 0)
);--> statement-breakpoint
CREATE UNIQUE INDEX "customers_org_name_uq" ON "customers" USING btree ("organization_id", lower("name"));--> statement-breakpoint
ALTER TABLE "loads" ADD COLUMN "customer_id" uuid;--> statement-breakpoint
ALTER TABLE "loads" ADD CONSTRAINT "loads_customer_fk" FOREIGN KEY ("organization_id", "customer_id") REFERENCES "customers" ("organization_id", "id") ON DELETE SET NULL ("customer_id");--> statement-breakpoint
CREATE INDEX "loads_org_customer_idx" ON "loads" USING btree ("organization_id", "customer_id") WHERE "customer_id" IS NOT NULL;--> statement-breakpoint
-- The loads already made: one customer per name of each organization, whatever its case (spelled as
-- most of its loads spell it, the latest on a tie), and every load of that name linked to it. Both
-- statements touch only loads without a customer and skip names already kept, so running them again
-- (the test does) changes nothing already linked. A load's printed name is left as it was written
-- (a spelling that differs only in case or spaces stays).
INSERT INTO "customers" ("organization_id", "name")
SELECT DISTINCT ON ("organization_id", lower("name")) "organization_id", "name"
FROM (
  SELECT "organization_id", btrim("customer") AS "name", count(*) AS "uses", max("created_at") AS "latest"
  FROM "loads" WHERE "customer_id" IS NULL AND btrim("customer") <> '' GROUP BY "organization_id", btrim("customer")
) AS "spellings"
ORDER BY "organization_id", lower("name"), "uses" DESC, "latest" DESC
ON CONFLICT DO NOTHING;--> statement-breakpoint
UPDATE "loads" SET "customer_id" = c."id"
FROM "customers" c
WHERE "loads"."customer_id" IS NULL AND c."organization_id" = "loads"."organization_id" AND lower(c."name") = lower(btrim("loads"."customer"));--> statement-breakpoint
-- CUSTOMER_LIST and CUSTOMER_UPDATE are new organization codes. The built-in Administrator holds
-- every code (stored too, as migration 0017 did); a role that manages loads used to type any
-- customer on a load, so it keeps that by managing customers; one that sees loads sees customers.
UPDATE "roles" SET "permissions" = array_append("permissions", 'CUSTOMER_LIST')
WHERE ("system_role" = 'ADMIN' OR 'LOAD_LIST' = ANY("permissions") OR 'LOAD_UPDATE' = ANY("permissions")) AND NOT ('CUSTOMER_LIST' = ANY("permissions"));--> statement-breakpoint
UPDATE "roles" SET "permissions" = array_append("permissions", 'CUSTOMER_UPDATE')
WHERE ("system_role" = 'ADMIN' OR 'LOAD_UPDATE' = ANY("permissions")) AND NOT ('CUSTOMER_UPDATE' = ANY("permissions"));
