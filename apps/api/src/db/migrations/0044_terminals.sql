-- Issue 46: the organization's home terminals (decision 0188). A driver belongs to one; the log's
-- header, the roadside view and the ELD output file's carrier line read its address and time zone.
-- Keys lead with organization_id (decision 0169) so db:distribute places the rows with the
-- organization's; the driver's link names (organization_id, home_terminal_id) on both sides.
-- A terminal in use is refused deletion by the API (409); the RESTRICT key is the backstop.
CREATE TABLE "terminals" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "name" text NOT NULL,
  "address_line1" text NOT NULL,
  "city" text NOT NULL,
  "state" text NOT NULL,
  "postal_code" text,
  "time_zone" text NOT NULL,
  "created_at" timestamp with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "terminals_pkey" PRIMARY KEY ("organization_id", "id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "terminals_org_name_uq" ON "terminals" USING btree ("organization_id", lower("name"));--> statement-breakpoint
ALTER TABLE "drivers" ADD COLUMN "home_terminal_id" uuid;--> statement-breakpoint
ALTER TABLE "drivers" ADD CONSTRAINT "drivers_home_terminal_fk" FOREIGN KEY ("organization_id", "home_terminal_id") REFERENCES "terminals" ("organization_id", "id") ON DELETE RESTRICT;--> statement-breakpoint
CREATE INDEX "drivers_home_terminal_idx" ON "drivers" USING btree ("organization_id", "home_terminal_id") WHERE "home_terminal_id" IS NOT NULL;
