-- Issue 28: fuel purchases checked before they count (decision 0137).
ALTER TABLE "assets" ADD COLUMN "tank_capacity_l" double precision;
--> statement-breakpoint
ALTER TABLE "ifta_fuel_purchases" ADD COLUMN "bulk" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
ALTER TABLE "ifta_fuel_purchases" ADD COLUMN "price_mismatch" boolean DEFAULT false NOT NULL;
--> statement-breakpoint
-- Purchases recorded before the check: price x quantity against the total, 1 % (or a cent) apart.
UPDATE "ifta_fuel_purchases" SET "price_mismatch" = true
WHERE "price_per_unit_milli" IS NOT NULL AND "total_cents" IS NOT NULL
  AND abs("quantity_milli"::numeric * "price_per_unit_milli" - "total_cents"::numeric * 10000) > greatest(0.01 * "total_cents"::numeric * 10000, 10000);
--> statement-breakpoint
CREATE TABLE "ifta_review_marks" (
	"organization_id" uuid NOT NULL,
	"quarter" text NOT NULL,
	"item_key" text NOT NULL,
	"reviewed_by" uuid,
	"reviewed_by_email" text,
	"reviewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"note" text,
	CONSTRAINT "ifta_review_marks_pkey" PRIMARY KEY("organization_id","quarter","item_key")
);
--> statement-breakpoint
ALTER TABLE "ifta_review_marks" ADD CONSTRAINT "ifta_review_marks_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "ifta_review_marks" ADD CONSTRAINT "ifta_review_marks_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;
