-- Issue 71: driver qualification files and the papers of vehicles and trailers (decision 0300).
-- compliance_items: one paper (a licence, a medical certificate, an MVR, a registration, an annual
-- inspection, …) of one driver or one asset, never both; its dates give its status (the contract's
-- complianceStatus). approval: the office's papers count at once (APPROVED); a driver's renewal from
-- the phone waits (PENDING) until the office approves or rejects it. client_id: the phone's
-- Idempotency-Key, so a renewal sent again from the offline outbox is stored once.
-- compliance_item_pages: the paper's pages in order, each an uploaded image (the images module) or
-- one stored PDF file.
-- Keys lead with organization_id (decision 0169) so db:distribute distributes them by organization.
CREATE TABLE "compliance_items" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "driver_id" uuid,
  "asset_id" uuid,
  "kind" text NOT NULL,
  "approval" text DEFAULT 'APPROVED' NOT NULL,
  "number" text,
  "state" text,
  "class" text,
  "endorsements" text,
  "restrictions" text,
  "title" text,
  "issuer" text,
  "examiner_registry_number" text,
  "inspector" text,
  "result" text,
  "failed_items" text[] DEFAULT '{}' NOT NULL,
  "issued_on" date,
  "expires_on" date,
  "notes" text,
  "page_count" integer DEFAULT 0 NOT NULL,
  "client_id" text,
  "submitted_by" uuid,
  "decided_by" uuid,
  "decided_at" timestamp(3) with time zone,
  "reject_reason" text,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "compliance_items_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "compliance_items_subject_check" CHECK (num_nonnulls("driver_id", "asset_id") = 1),
  CONSTRAINT "compliance_items_kind_check" CHECK ("kind" in ('CDL', 'MEDICAL_CERTIFICATE', 'MVR', 'ANNUAL_REVIEW', 'ROAD_TEST', 'EMPLOYMENT_APPLICATION', 'EMPLOYER_INQUIRY', 'CLEARINGHOUSE_FULL', 'CLEARINGHOUSE_LIMITED', 'REGISTRATION', 'IRP_CAB_CARD', 'INSURANCE', 'ANNUAL_INSPECTION', 'PERMIT')),
  CONSTRAINT "compliance_items_approval_check" CHECK ("approval" in ('APPROVED', 'PENDING', 'REJECTED')),
  CONSTRAINT "compliance_items_result_check" CHECK ("result" is null or "result" in ('PASS', 'FAIL')),
  CONSTRAINT "compliance_items_dates_check" CHECK ("expires_on" is null or "issued_on" is null or "expires_on" >= "issued_on"),
  CONSTRAINT "compliance_items_driver_fk" FOREIGN KEY ("organization_id", "driver_id") REFERENCES "drivers"("organization_id", "id") ON DELETE cascade,
  CONSTRAINT "compliance_items_asset_fk" FOREIGN KEY ("organization_id", "asset_id") REFERENCES "assets"("organization_id", "id") ON DELETE cascade
);--> statement-breakpoint
CREATE INDEX "compliance_items_driver_idx" ON "compliance_items" USING btree ("organization_id", "driver_id", "kind") WHERE "driver_id" is not null;--> statement-breakpoint
CREATE INDEX "compliance_items_asset_idx" ON "compliance_items" USING btree ("organization_id", "asset_id", "kind") WHERE "asset_id" is not null;--> statement-breakpoint
CREATE INDEX "compliance_items_pending_idx" ON "compliance_items" USING btree ("organization_id", "created_at") WHERE "approval" = 'PENDING';--> statement-breakpoint
CREATE UNIQUE INDEX "compliance_items_client_uq" ON "compliance_items" USING btree ("organization_id", "client_id") WHERE "client_id" is not null;--> statement-breakpoint
CREATE TABLE "compliance_item_pages" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "item_id" uuid NOT NULL,
  "seq" integer NOT NULL,
  "image_id" uuid REFERENCES "images"("id") ON DELETE cascade,
  "pdf" bytea,
  "pdf_pages" integer,
  CONSTRAINT "compliance_item_pages_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "compliance_item_pages_one_check" CHECK (num_nonnulls("image_id", "pdf") = 1),
  CONSTRAINT "compliance_item_pages_item_fk" FOREIGN KEY ("organization_id", "item_id") REFERENCES "compliance_items"("organization_id", "id") ON DELETE cascade
);--> statement-breakpoint
CREATE UNIQUE INDEX "compliance_item_pages_seq_uq" ON "compliance_item_pages" USING btree ("organization_id", "item_id", "seq");--> statement-breakpoint
-- COMPLIANCE_LIST and COMPLIANCE_UPDATE are new organization permissions: the built-in Administrator
-- roles get both, and so does every role that reviews safety (SAFETY_UPDATE, the safety managers).
UPDATE "roles" SET "permissions" = array_append("permissions", 'COMPLIANCE_LIST')
WHERE ("system_role" = 'ADMIN' OR 'SAFETY_UPDATE' = ANY("permissions")) AND NOT ('COMPLIANCE_LIST' = ANY("permissions"));--> statement-breakpoint
UPDATE "roles" SET "permissions" = array_append("permissions", 'COMPLIANCE_UPDATE')
WHERE ("system_role" = 'ADMIN' OR 'SAFETY_UPDATE' = ANY("permissions")) AND NOT ('COMPLIANCE_UPDATE' = ANY("permissions"));
