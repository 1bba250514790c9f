-- Issue 70: invoices of delivered loads, their lines and payments (decision 0291).
-- invoice_counters: the organization's last invoice number (INV-1001, …), as load_counters.
-- invoices: the customer's name and billing address copied when the draft is made; money in cents.
-- invoice_loads: the loads an invoice bills; the partial unique index bills a load once, and a void
-- invoice's rows are marked released so the load may be billed again.
-- invoice_lines: line haul, fuel surcharge, accessorials, detention per stop, lumper, or by hand.
-- invoice_payments: payments received, in parts.
-- Keys lead with organization_id (decision 0169) so db:distribute distributes them by organization.
CREATE TABLE "invoice_counters" (
  "organization_id" uuid PRIMARY KEY NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "last" integer NOT NULL
);--> statement-breakpoint
CREATE TABLE "invoices" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "number" text NOT NULL,
  "customer_id" uuid NOT NULL,
  "customer_name" text NOT NULL,
  "billing_address" text,
  "status" text DEFAULT 'DRAFT' NOT NULL,
  "currency" text NOT NULL,
  "invoice_date" date NOT NULL,
  "due_date" date NOT NULL,
  "terms_days" integer NOT NULL,
  "total_cents" bigint NOT NULL,
  "paid_cents" bigint DEFAULT 0 NOT NULL,
  "notes" text,
  "sent_at" timestamp(3) with time zone,
  "sent_to" text,
  "voided_at" timestamp(3) with time zone,
  "void_reason" text,
  "created_by" uuid,
  "created_by_token" uuid,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  "updated_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "invoices_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "invoices_status_check" CHECK ("status" in ('DRAFT', 'SENT', 'PARTIALLY_PAID', 'PAID', 'VOID')),
  CONSTRAINT "invoices_paid_check" CHECK ("paid_cents" >= 0),
  CONSTRAINT "invoices_customer_fk" FOREIGN KEY ("organization_id", "customer_id") REFERENCES "customers"("organization_id", "id") ON DELETE restrict
);--> statement-breakpoint
CREATE UNIQUE INDEX "invoices_org_number_uq" ON "invoices" USING btree ("organization_id", "number");--> statement-breakpoint
CREATE INDEX "invoices_org_status_due_idx" ON "invoices" USING btree ("organization_id", "status", "due_date");--> statement-breakpoint
CREATE INDEX "invoices_org_customer_idx" ON "invoices" USING btree ("organization_id", "customer_id");--> statement-breakpoint
CREATE INDEX "invoices_org_date_idx" ON "invoices" USING btree ("organization_id", "invoice_date");--> statement-breakpoint
CREATE TABLE "invoice_loads" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "invoice_id" uuid NOT NULL,
  "load_id" uuid NOT NULL,
  "released" boolean DEFAULT false NOT NULL,
  CONSTRAINT "invoice_loads_pkey" PRIMARY KEY ("organization_id", "invoice_id", "load_id"),
  CONSTRAINT "invoice_loads_invoice_fk" FOREIGN KEY ("organization_id", "invoice_id") REFERENCES "invoices"("organization_id", "id") ON DELETE cascade,
  CONSTRAINT "invoice_loads_load_fk" FOREIGN KEY ("organization_id", "load_id") REFERENCES "loads"("organization_id", "id") ON DELETE restrict
);--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_loads_load_uq" ON "invoice_loads" USING btree ("organization_id", "load_id") WHERE NOT "released";--> statement-breakpoint
CREATE TABLE "invoice_lines" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "invoice_id" uuid NOT NULL,
  "seq" integer NOT NULL,
  "kind" text NOT NULL,
  "load_id" uuid,
  "stop_id" uuid,
  "stop_seq" integer,
  "description" text NOT NULL,
  "minutes" integer,
  "rate_cents" integer,
  "amount_cents" bigint NOT NULL,
  CONSTRAINT "invoice_lines_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "invoice_lines_kind_check" CHECK ("kind" in ('LINE_HAUL', 'FUEL_SURCHARGE', 'ACCESSORIAL', 'DETENTION', 'LUMPER', 'OTHER')),
  CONSTRAINT "invoice_lines_invoice_fk" FOREIGN KEY ("organization_id", "invoice_id") REFERENCES "invoices"("organization_id", "id") ON DELETE cascade
);--> statement-breakpoint
CREATE INDEX "invoice_lines_invoice_idx" ON "invoice_lines" USING btree ("organization_id", "invoice_id", "seq");--> statement-breakpoint
CREATE TABLE "invoice_payments" (
  "organization_id" uuid NOT NULL REFERENCES "organizations"("id") ON DELETE cascade,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "invoice_id" uuid NOT NULL,
  "amount_cents" bigint NOT NULL,
  "received_on" date NOT NULL,
  "reference" text,
  "method" text,
  "created_by" uuid,
  "created_by_token" uuid,
  "created_at" timestamp(3) with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "invoice_payments_pkey" PRIMARY KEY ("organization_id", "id"),
  CONSTRAINT "invoice_payments_amount_check" CHECK ("amount_cents" > 0),
  CONSTRAINT "invoice_payments_method_check" CHECK ("method" is null or "method" in ('ACH', 'CHECK', 'WIRE', 'CARD', 'FACTORING', 'OTHER')),
  CONSTRAINT "invoice_payments_invoice_fk" FOREIGN KEY ("organization_id", "invoice_id") REFERENCES "invoices"("organization_id", "id") ON DELETE cascade
);--> statement-breakpoint
CREATE INDEX "invoice_payments_invoice_idx" ON "invoice_payments" USING btree ("organization_id", "invoice_id", "received_on");--> statement-breakpoint
-- INVOICE_LIST and INVOICE_UPDATE are new organization permissions: the built-in Administrator roles
-- already on file get them, as new ones do (0014, 0017).
UPDATE "roles" SET "permissions" = array_append("permissions", 'INVOICE_LIST') WHERE "system_role" = 'ADMIN' AND NOT ('INVOICE_LIST' = ANY("permissions"));--> statement-breakpoint
UPDATE "roles" SET "permissions" = array_append("permissions", 'INVOICE_UPDATE') WHERE "system_role" = 'ADMIN' AND NOT ('INVOICE_UPDATE' = ANY("permissions"));
