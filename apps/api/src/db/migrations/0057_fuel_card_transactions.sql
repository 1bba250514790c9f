-- Issue 68, part 1: fuel-card transactions checked against the truck (decisions 0274, 0275).
-- fuel_transactions: one row per card transaction, named by the card processor's transaction id
-- (unique in the organization: a repeat is a duplicate, counted, not stored twice); the vehicle and
-- driver it was resolved to, the IFTA purchase it became, its verification and its review.
-- fuel_card_assignments: a card (its last 4 digits) given to a vehicle or a driver.
-- fuel_import_presets: an organization's saved column mappings for card exports.
-- Keys lead with organization_id (decision 0169) so db:distribute distributes them by organization.
CREATE TABLE "fuel_transactions" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "transaction_id" text NOT NULL,
  "card_last4" text,
  "unit_number" text,
  "driver_name" text,
  "vehicle_id" uuid,
  "driver_id" uuid,
  "resolved_by" text,
  "time" timestamp(3) with time zone NOT NULL,
  "latitude" double precision,
  "longitude" double precision,
  "merchant" text,
  "city" text,
  "state" text,
  "fuel_type" text NOT NULL,
  "quantity_milli" bigint NOT NULL,
  "unit" text NOT NULL,
  "unit_price_milli" integer,
  "total_cents" bigint,
  "odometer" double precision,
  "source" text DEFAULT 'API' NOT NULL,
  "purchase_id" uuid,
  "verification" text NOT NULL,
  "verification_details" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "checked_at" timestamp(3) with time zone NOT NULL,
  "review_status" text,
  "review_note" text,
  "reviewed_by" uuid,
  "reviewed_by_email" text,
  "reviewed_at" timestamp(3) with time zone,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "fuel_transactions_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "fuel_transactions_unit_check" CHECK ("unit" in ('GAL', 'L')),
  CONSTRAINT "fuel_transactions_source_check" CHECK ("source" in ('API', 'FILE', 'DEMO')),
  CONSTRAINT "fuel_transactions_verification_check" CHECK ("verification" in ('VERIFIED', 'LOCATION_MISMATCH', 'NO_POSITION', 'OVER_TANK', 'NO_FILL_SEEN', 'NO_VEHICLE')),
  CONSTRAINT "fuel_transactions_review_check" CHECK ("review_status" in ('ACCEPTED', 'DISPUTED'))
);--> statement-breakpoint
CREATE UNIQUE INDEX "fuel_transactions_transaction_uq" ON "fuel_transactions" USING btree ("organization_id", "transaction_id");--> statement-breakpoint
CREATE INDEX "fuel_transactions_time_idx" ON "fuel_transactions" USING btree ("organization_id", "time" DESC);--> statement-breakpoint
CREATE INDEX "fuel_transactions_verification_idx" ON "fuel_transactions" USING btree ("organization_id", "verification", "time" DESC);--> statement-breakpoint
CREATE INDEX "fuel_transactions_vehicle_idx" ON "fuel_transactions" USING btree ("organization_id", "vehicle_id", "time");--> statement-breakpoint
CREATE INDEX "fuel_transactions_purchase_idx" ON "fuel_transactions" USING btree ("organization_id", "purchase_id");--> statement-breakpoint
CREATE TABLE "fuel_card_assignments" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "card_last4" text NOT NULL,
  "vehicle_id" uuid,
  "driver_id" uuid,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "fuel_card_assignments_pkey" PRIMARY KEY ("organization_id", "card_last4"),
  CONSTRAINT "fuel_card_assignments_holder_check" CHECK (("vehicle_id" is null) <> ("driver_id" is null))
);--> statement-breakpoint
CREATE TABLE "fuel_import_presets" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "name" text NOT NULL,
  "base" text NOT NULL,
  "mapping" jsonb DEFAULT '{}'::jsonb NOT NULL,
  "date_format" text,
  "default_unit" text DEFAULT 'GAL' NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "fuel_import_presets_pkey" PRIMARY KEY ("organization_id", "name")
);
